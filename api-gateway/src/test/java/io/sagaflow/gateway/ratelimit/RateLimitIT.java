package io.sagaflow.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.gateway.ApiGatewayApplication;
import io.sagaflow.gateway.support.FakeServices;
import io.sagaflow.gateway.support.Http;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two gateway replicas (two Spring contexts in this JVM) whose Hazelcast members form one cluster: a client's bucket
 * (5 tokens, refilled at one per 10 s) is shared, whichever replica its requests reach. The last test stops a member.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RateLimitIT {

    private static final int CAPACITY = 5;

    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void startTwoReplicas() {
        int hazelcastPort = portBase();
        first = start(hazelcastPort);
        second = start(hazelcastPort);
    }

    @AfterAll
    static void stop() {
        for (ConfigurableApplicationContext replica : new ConfigurableApplicationContext[] {first, second}) {
            if (replica != null) {
                replica.close();
            }
        }
        FakeServices.resetAll();
    }

    @Test
    void theReplicasFormOneCluster() {
        assertThat(first.getBean(HazelcastInstance.class).getCluster().getMembers())
                .hasSize(2);
    }

    @Test
    void aClientsBucketIsSharedByBothReplicas() {
        String[] client = {"X-API-Key", "shared-bucket-client"};
        List<Integer> remaining = new ArrayList<>();
        for (int request = 0; request < CAPACITY; request++) {
            HttpResponse<String> allowed = Http.get(port(request % 2 == 0 ? first : second), "/api/orders/o-1", client);
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.headers().firstValue("RateLimit-Limit")).hasValue("5");
            remaining.add(Integer.parseInt(
                    allowed.headers().firstValue("RateLimit-Remaining").orElseThrow()));
        }
        assertThat(remaining).containsExactly(4, 3, 2, 1, 0);

        for (ConfigurableApplicationContext replica : List.of(first, second)) {
            HttpResponse<String> rejected = Http.get(port(replica), "/api/orders/o-1", client);

            assertThat(rejected.statusCode()).isEqualTo(429);
            assertThat(rejected.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(rejected.headers().firstValue("Retry-After"))
                    .hasValueSatisfying(
                            seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 10));
            assertThat(rejected.headers().firstValue("RateLimit-Limit")).hasValue("5");
            assertThat(rejected.headers().firstValue("RateLimit-Remaining")).hasValue("0");
            assertThat(rejected.headers().firstValue("RateLimit-Reset"))
                    .hasValueSatisfying(
                            seconds -> assertThat(Integer.parseInt(seconds)).isBetween(40, 50));
            assertThat(rejected.headers().firstValue("X-Correlation-Id")).isPresent();
            assertThat(rejected.body())
                    .contains(
                            "\"type\":\"urn:sagaflow:problem:TOO_MANY_REQUESTS\"",
                            "\"status\":429",
                            "\"code\":\"TOO_MANY_REQUESTS\"");
        }
    }

    @Test
    void everyClientHasItsOwnBucket_keyedByApiKeyOrElseAddress() {
        for (int request = 0; request < CAPACITY; request++) {
            Http.get(port(first), "/api/customers/c-1", "X-API-Key", "greedy-client");
        }
        assertThat(Http.get(port(second), "/api/customers/c-1", "X-API-Key", "greedy-client")
                        .statusCode())
                .isEqualTo(429);

        assertThat(Http.get(port(second), "/api/customers/c-1", "X-API-Key", "another-client")
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> byAddress = Http.get(port(second), "/api/customers/c-1");
        assertThat(byAddress.statusCode()).isEqualTo(200);
        assertThat(byAddress.headers().firstValue("RateLimit-Remaining")).isPresent();
    }

    @Test
    void onlyTheApiIsLimited() {
        for (int request = 0; request < CAPACITY + 2; request++) {
            HttpResponse<String> health = Http.get(port(first), "/actuator/health", "X-API-Key", "health-checker");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.headers().firstValue("RateLimit-Limit")).isEmpty();
        }
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void whenTheClusterIsGone_requestsPassUnlimited() {
        String[] client = {"X-API-Key", "client-of-a-broken-cluster"};
        for (int request = 0; request < CAPACITY; request++) {
            Http.get(port(second), "/api/orders/o-1", client);
        }
        assertThat(Http.get(port(second), "/api/orders/o-1", client).statusCode())
                .isEqualTo(429);

        second.getBean(HazelcastInstance.class).getLifecycleService().terminate();

        HttpResponse<String> unlimited = Http.get(port(second), "/api/orders/o-1", client);
        assertThat(unlimited.statusCode()).isEqualTo(200);
        assertThat(unlimited.headers().firstValue("RateLimit-Limit")).isEmpty();
    }

    private static ConfigurableApplicationContext start(int hazelcastPort) {
        List<String> args = new ArrayList<>(FakeServices.asProperties());
        args.addAll(List.of(
                "--server.port=0",
                "--sagaflow.gateway.rate-limit.enabled=true",
                "--sagaflow.gateway.rate-limit.capacity=" + CAPACITY,
                "--sagaflow.gateway.rate-limit.refill-per-second=0.1",
                "--sagaflow.gateway.hazelcast.port=" + hazelcastPort,
                "--sagaflow.gateway.hazelcast.port-count=5",
                "--sagaflow.gateway.hazelcast.members=127.0.0.1",
                "--sagaflow.gateway.hazelcast.bind-interface=127.0.0.1",
                "--sagaflow.gateway.hazelcast.partition-count=11",
                "--sagaflow.gateway.hazelcast.cluster-name=api-gateway-it-" + hazelcastPort,
                "--sagaflow.gateway.hazelcast.properties[hazelcast.wait.seconds.before.join]=0",
                "--sagaflow.gateway.hazelcast.properties[hazelcast.max.join.seconds]=10"));
        return new SpringApplicationBuilder(ApiGatewayApplication.class).run(args.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext replica) {
        return ((WebServerApplicationContext) replica).getWebServer().getPort();
    }

    /**
     * A base below the kernel's ephemeral range (32768 and up), where nothing else in the build is given a port: a port
     * from {@code new ServerSocket(0)} leaves the members' next ports to whatever the kernel hands out next, and a
     * member once joined a stranger there. The same rule as the framework's {@code HazelcastTestClusters.randomPortBase}
     * (the gateway does not depend on the framework, not even in its tests).
     */
    private static int portBase() {
        return 10_000 + ThreadLocalRandom.current().nextInt(2_270) * 10;
    }
}
