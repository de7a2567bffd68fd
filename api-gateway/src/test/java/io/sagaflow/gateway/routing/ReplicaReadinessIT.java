package io.sagaflow.gateway.routing;

import static io.sagaflow.gateway.support.FakeServices.ORDER;
import static io.sagaflow.gateway.support.FakeServices.ORDER_2;
import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.gateway.ApiGatewayApplication;
import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.FakeServicesTestBase;
import io.sagaflow.gateway.support.Http;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * The gateway's readiness probes (ADR 0077) with its own time limit (5 s) and breakers: a replica that says it is not
 * ready gets no requests, however its port answers.
 */
@SpringBootTest(
        classes = ApiGatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "sagaflow.gateway.readiness.interval=200ms")
class ReplicaReadinessIT extends FakeServicesTestBase {

    private static final String READINESS = FakeService.READINESS;

    @Autowired
    private DiscoveryClient discovery;

    @Test
    void aReplicaThatSaysItIsNotReadyGetsNoRequests_untilItSaysItIs() throws InterruptedException {
        ORDER_2.answer(READINESS, 503);
        awaitOrderReplicasOffered(count -> count == 1);

        for (int i = 0; i < 10; i++) {
            assertThat(Http.get(port, "/api/orders/o-" + i).statusCode()).isEqualTo(200);
        }
        assertThat(ORDER.count("GET", "/api/orders/o-0")).isEqualTo(1);
        assertThat(ORDER_2.received()).isEmpty();
        assertThat(ORDER_2.probes()).isPositive();

        ORDER_2.answer(READINESS, 200);
        awaitOrderReplicasOffered(count -> count == 2);
        for (int i = 0; i < 10; i++) {
            assertThat(Http.get(port, "/api/orders/after-" + i).statusCode()).isEqualTo(200);
        }
        assertThat(ORDER_2.received())
                .filteredOn(r -> r.path().startsWith("/api/orders/"))
                .hasSize(5);
    }

    /**
     * A rolling update's new replica: its port opens long before it is ready, and a request it took then waited for
     * its start. Without the probes (interval 0) about half of these orders were answered 504 after 5 s (checked).
     */
    @Test
    void ordersPlacedWhileAReplicaStartsAgainAreAllAnsweredByTheOthers() throws Exception {
        ORDER_2.stop();
        awaitOrderReplicasOffered(count -> count == 1);
        ORDER_2.answer(READINESS, 503);
        ORDER_2.delay("/api/orders", Duration.ofSeconds(6));
        ORDER_2.restart();
        Thread.sleep(500);

        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 20; i++) {
                String key = "k-starting-" + i;
                answers.add(clients.submit(() -> Http.post(port, "/api/orders", "{}", "Idempotency-Key", key)));
            }
        }
        for (Future<HttpResponse<String>> answer : answers) {
            assertThat(answer.get().statusCode()).isEqualTo(200);
        }
        assertThat(ORDER.count("POST", "/api/orders")).isEqualTo(20);
        assertThat(ORDER_2.count("POST", "/api/orders")).isZero();
    }

    private void awaitOrderReplicasOffered(IntPredicate expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!expected.test(
                readyReplicas.ready(discovery.getInstances("order")).size())) {
            assertThat(System.nanoTime()).as("the probes' verdict within 5 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
