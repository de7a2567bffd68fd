package io.sagaflow.gateway.routing;

import static io.sagaflow.gateway.support.FakeServices.INVENTORY;
import static io.sagaflow.gateway.support.FakeServices.ORDER;
import static io.sagaflow.gateway.support.FakeServices.ORDER_2;
import static io.sagaflow.gateway.support.FakeServices.PAYMENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.GatewayTestBase;
import io.sagaflow.gateway.support.Http;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The gateway in front of failing services: breakers, time limits and retries, answered as problems. */
class ResilienceIT extends GatewayTestBase {

    @Test
    void aStoppedServiceOpensItsBreaker_andItClosesWhenTheServiceReturns() throws Exception {
        PAYMENT.stop();

        for (int call = 0; call < 4; call++) {
            HttpResponse<String> unreachable = Http.post(port, "/api/payments", "{}");
            assertServiceUnavailable(unreachable);
        }
        assertThat(breakers.circuitBreaker("payment").getState()).isEqualTo(CircuitBreaker.State.OPEN);

        long started = System.nanoTime();
        HttpResponse<String> open = Http.get(port, "/api/payments/pay-1");
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertServiceUnavailable(open);
        assertThat(open.body()).contains("stopped calling it");
        assertThat(open.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 2));
        assertThat(tookMillis).as("an open breaker answers at once").isLessThan(200);
        assertThat(PAYMENT.received()).isEmpty();

        PAYMENT.restart();
        Thread.sleep(Duration.ofMillis(2_100));

        HttpResponse<String> trial = Http.get(port, "/api/payments/pay-1");
        assertThat(trial.statusCode()).isEqualTo(200);
        assertThat(breakers.circuitBreaker("payment").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(Http.get(port, "/api/payments/pay-2").statusCode()).isEqualTo(200);
    }

    @Test
    void aSlowServiceIsA504WithinTheTimeLimit() {
        INVENTORY.delay("/api/products/slow", Duration.ofSeconds(4));

        long started = System.nanoTime();
        HttpResponse<String> response = Http.get(port, "/api/products/slow");
        long tookMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body())
                .contains(
                        "\"type\":\"urn:sagaflow:problem:GATEWAY_TIMEOUT\"",
                        "\"code\":\"GATEWAY_TIMEOUT\"",
                        "\"status\":504",
                        "\"service\":\"inventory\"");
        assertThat(tookMillis).as("answered at the 1 s time limit").isBetween(900L, 2_000L);
        assertThat(Http.get(port, "/api/products/fast").statusCode()).isEqualTo(200);
    }

    /** An audit reads whole tables; with 100 000 orders it took longer than the gateway's 5 s (found by fuzzing). */
    @Test
    void theAuditsMayOutlastTheTimeLimitOfOtherCalls() {
        Duration slow = Duration.ofMillis(1_500);
        ORDER.delay("/api/admin/audit", slow);
        ORDER_2.delay("/api/admin/audit", slow);
        INVENTORY.delay("/api/admin/audit/stock", slow);
        INVENTORY.delay("/api/admin/audit/stock/reservations", slow);
        PAYMENT.delay("/api/admin/audit/payments", slow);

        for (String audit : List.of(
                "/api/admin/audit",
                "/api/admin/audit/stock",
                "/api/admin/audit/stock/reservations",
                "/api/admin/audit/payments")) {
            assertThat(Http.get(port, audit).statusCode()).as(audit).isEqualTo(200);
        }
        INVENTORY.delay("/api/products/slow", slow);
        assertThat(Http.get(port, "/api/products/slow").statusCode())
                .as("other reads keep their limit")
                .isEqualTo(504);
    }

    @Test
    void anOrderReadThatWaitsForAChangeMayOutlastTheTimeLimit_otherReadsMayNot() {
        ORDER.delay("/api/orders/o-waits", Duration.ofMillis(1_500));
        ORDER_2.delay("/api/orders/o-waits", Duration.ofMillis(1_500));

        HttpResponse<String> waited =
                Http.get(port, "/api/orders/o-waits", "If-None-Match", "\"PENDING-1\"", "Prefer", "wait=10");
        HttpResponse<String> plain = Http.get(port, "/api/orders/o-waits");

        assertThat(waited.statusCode())
                .as("answered after the 1 s time limit of other reads")
                .isEqualTo(200);
        assertThat(Stream.concat(ORDER.received().stream(), ORDER_2.received().stream())
                        .map(received -> received.header("Prefer")))
                .as("the wait reaches the service")
                .contains("wait=10");
        assertThat(plain.statusCode()).isEqualTo(504);
        assertThat(waited.headers().firstValue("Preference-Applied")).hasValue("wait=10");
        assertThat(Http.get(port, "/actuator/prometheus").body())
                .as("the wait is timed apart from the latency of other requests")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*status=\"200\"[^}]*wait=\"yes\"")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*status=\"504\"[^}]*wait=\"no\"");
    }

    @Test
    void readsAndWritesThatNeverLeftTheGatewayGoToAnotherReplicaWhenOneIsDown() {
        ORDER_2.stop();

        for (int i = 0; i < 4; i++) {
            assertThat(Http.get(port, "/api/orders/o-" + i).statusCode())
                    .as("a read retried on the live replica")
                    .isEqualTo(200);
        }
        assertThat(ORDER.received()).hasSize(4);

        // Without a key, and not creates: the stopped replica refused the connection, nothing was sent, so whichever
        // replica each write went to first, the live one gets it, whole.
        unreachableReplicas.clear();
        for (int i = 0; i < 2; i++) {
            assertThat(Http.post(port, "/api/orders/o-" + i + "/cancel", "{\"reason\":\"r" + i + "\"}")
                            .statusCode())
                    .isEqualTo(200);
        }
        assertThat(ORDER.received())
                .filteredOn(r -> r.method().equals("POST"))
                .extracting(r -> r.path() + " " + r.body())
                .containsExactly(
                        "/api/orders/o-0/cancel {\"reason\":\"r0\"}", "/api/orders/o-1/cancel {\"reason\":\"r1\"}");

        // A create without a key reaches the live replica too: the gateway gives it a key of its own and sends it again
        // as a keyed create (ADR 0070).
        unreachableReplicas.clear();
        for (int i = 0; i < 2; i++) {
            assertThat(Http.post(port, "/api/orders", "{\"n\":" + i + "}").statusCode())
                    .isEqualTo(200);
        }
        assertThat(ORDER.received())
                .filteredOn(r -> r.path().equals("/api/orders"))
                .extracting(FakeService.Received::body)
                .containsExactly("{\"n\":0}", "{\"n\":1}");

        // Creates too large to hold, with a key or without, take the way of the writes above: never sent, so sent on.
        unreachableReplicas.clear();
        String large = "{\"note\":\"" + "x".repeat(70 * 1024) + "\"}";
        assertThat(createOrder("k-large-" + UUID.randomUUID(), large).statusCode())
                .isEqualTo(200);
        assertThat(Http.post(port, "/api/orders", large).statusCode()).isEqualTo(200);
        assertThat(ORDER.received())
                .filteredOn(r -> r.body().equals(large))
                .hasSize(2)
                .extracting(r -> String.valueOf(r.header("Idempotency-Key")))
                .as("the client's key kept, none given to the one without: its body could not be held")
                .satisfiesExactly(
                        key -> assertThat(key).startsWith("k-large-"),
                        key -> assertThat(key).isEqualTo("null"));
    }

    @Test
    void aReplicaThatRefusedAConnectionIsLeftOutForAPause_thenTriedAgain() throws Exception {
        ORDER_2.stop();
        assertThat(Http.get(port, "/api/orders/o-1").statusCode()).isEqualTo(200);
        assertThat(Http.get(port, "/api/orders/o-2").statusCode()).isEqualTo(200);

        // Whichever replica the first read went to, the stopped one has refused a connection by now.
        for (int i = 0; i < 6; i++) {
            assertThat(Http.post(port, "/api/orders", "{}").statusCode())
                    .as("an unkeyed write goes to the live replica only")
                    .isEqualTo(200);
        }
        assertThat(ORDER.count("POST", "/api/orders")).isEqualTo(6);

        ORDER_2.restart();
        Thread.sleep(1_100);
        for (int i = 0; i < 4; i++) {
            assertThat(Http.get(port, "/api/orders/o-" + i).statusCode()).isEqualTo(200);
        }
        assertThat(ORDER_2.count("GET", "/api/orders/o-0")
                        + ORDER_2.count("GET", "/api/orders/o-1")
                        + ORDER_2.count("GET", "/api/orders/o-2")
                        + ORDER_2.count("GET", "/api/orders/o-3"))
                .as("after the pause, the replica that is back gets its share")
                .isEqualTo(2);
    }

    @Test
    void aReadAnswered503IsRetried_aWriteIsNot() {
        ORDER.answer("/api/orders/busy", 503);
        ORDER_2.answer("/api/orders/busy", 503);

        HttpResponse<String> read = Http.get(port, "/api/orders/busy");
        HttpResponse<String> write = Http.post(port, "/api/orders/busy", "{}");

        assertThat(read.statusCode())
                .as("the service's own answer, after the retries")
                .isEqualTo(503);
        assertThat(ORDER.count("GET", "/api/orders/busy") + ORDER_2.count("GET", "/api/orders/busy"))
                .isEqualTo(3);
        assertThat(write.statusCode()).isEqualTo(503);
        assertThat(ORDER.count("POST", "/api/orders/busy") + ORDER_2.count("POST", "/api/orders/busy"))
                .isEqualTo(1);
    }

    @Test
    void aKeyedCreateGoesToAnotherReplicaWhenOneIsDown_orDropsIt_withItsBodyAndKey() {
        ORDER_2.stop();
        for (int i = 0; i < 2; i++) {
            assertThat(createOrder("k-down-" + i, "{\"n\":" + i + "}").statusCode())
                    .as("sent again to the live replica")
                    .isEqualTo(200);
        }
        assertThat(ORDER.count("POST", "/api/orders")).isEqualTo(2);

        ORDER_2.restart();
        unreachableReplicas.clear(); // rather than wait out its pause
        ORDER_2.drop("/api/orders");
        for (int i = 0; i < 2; i++) {
            assertThat(createOrder("k-drop-" + i, "{\"n\":" + i + "}").statusCode())
                    .as("the request a stopping replica held, sent again")
                    .isEqualTo(200);
        }
        assertThat(ORDER.received())
                .extracting(r -> r.header("Idempotency-Key") + " " + r.body())
                .containsExactly(
                        "k-down-0 {\"n\":0}", "k-down-1 {\"n\":1}", "k-drop-0 {\"n\":0}", "k-drop-1 {\"n\":1}");
        assertThat(ORDER_2.received())
                .isNotEmpty()
                .allSatisfy(held -> assertThat(ORDER.received())
                        .filteredOn(again -> held.header("Idempotency-Key").equals(again.header("Idempotency-Key")))
                        .singleElement()
                        .satisfies(again -> assertThat(again.body()).isEqualTo(held.body())));
    }

    @Test
    void keyedCreatesAReplicaHeldWhenItStoppedReachTheOtherWhole() throws Exception {
        // Within the tests' time limit of 1 s: the live replica answers at once, the other holds each request 800 ms.
        ORDER.delay("/api/orders", Duration.ofMillis(20));
        ORDER_2.delay("/api/orders", Duration.ofMillis(800));
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                String body = "{\"n\":" + i + ",\"pad\":\"" + "p".repeat(i * 100) + "\"}";
                String key = "k-held-" + i;
                sent.add(clients.submit(() -> createOrder(key, body)));
            }
            Thread.sleep(300);
            ORDER_2.stop();
            for (Future<HttpResponse<String>> answer : sent) {
                assertThat(answer.get().statusCode()).as(answer.get().body()).isEqualTo(200);
            }
        }
        // Every create the stopped replica held reached the live one with its own body, whole.
        assertThat(ORDER.received())
                .extracting(r -> r.header("Idempotency-Key") + " " + r.body())
                .hasSize(8)
                .allSatisfy(line -> {
                    int n = Integer.parseInt(line.substring("k-held-".length(), line.indexOf(' ')));
                    assertThat(line).endsWith(" {\"n\":" + n + ",\"pad\":\"" + "p".repeat(n * 100) + "\"}");
                });
    }

    @Test
    void aKeyedCreateSentAgainGoesToAReplicaItWasNotSentTo_whateverTurnsTheOtherRequestsTake() throws Exception {
        // Each create that reaches the second replica is dropped; the reads between them move the load balancer's turn.
        ORDER_2.drop("/api/orders");
        List<Future<HttpResponse<String>>> creates = new ArrayList<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 40; i++) {
                String key = "k-turn-" + i;
                creates.add(clients.submit(() -> createOrder(key, "{}")));
                String read = "/api/orders/o-turn-" + i;
                clients.submit(() -> Http.get(port, read));
                clients.submit(() -> Http.get(port, read));
            }
        }

        for (Future<HttpResponse<String>> created : creates) {
            assertThat(created.get().statusCode()).as(created.get().body()).isEqualTo(200);
        }
        assertThat(ORDER.count("POST", "/api/orders")).isEqualTo(40);
    }

    @Test
    void aKeyedCreateWhoseAnswerBreaksOffIsSentAgain() {
        ORDER_2.truncate("/api/orders");

        for (int i = 0; i < 2; i++) {
            HttpResponse<String> created = createOrder("k-cut-" + i, "{}");
            assertThat(created.statusCode()).isEqualTo(200);
            assertThat(created.body())
                    .isEqualTo("{\"service\":\"order\",\"method\":\"POST\",\"path\":\"/api/orders\"}");
        }
        assertThat(ORDER_2.count("POST", "/api/orders")).isPositive();
        assertThat(ORDER.count("POST", "/api/orders")).isEqualTo(2);
    }

    @Test
    void aCreateWithoutAKeyIsGivenOneByTheGateway_andSentAgainWithIt() {
        ORDER_2.drop("/api/orders");

        for (int i = 0; i < 2; i++) {
            assertThat(Http.post(port, "/api/orders", "{\"n\":" + i + "}").statusCode())
                    .as("sent again to the live replica, with the key the gateway gave it")
                    .isEqualTo(200);
        }
        assertThat(ORDER.received())
                .hasSize(2)
                .allSatisfy(
                        request -> assertThat(request.header("Idempotency-Key")).matches("gateway-[0-9a-f-]{36}"));
        assertThat(ORDER_2.received())
                .singleElement()
                .satisfies(held -> assertThat(ORDER.received())
                        .filteredOn(again -> again.body().equals(held.body()))
                        .singleElement()
                        .satisfies(again ->
                                assertThat(again.header("Idempotency-Key")).isEqualTo(held.header("Idempotency-Key"))));
    }

    @Test
    void writesWithTwoKeys_largeOnes_andOtherWritesAreSentOnce() {
        ORDER_2.drop("/api/orders");
        ORDER_2.drop("/api/orders/o-1/cancel");
        String large = "{\"note\":\"" + "x".repeat(70 * 1024) + "\"}";

        assertThat(sentOnceOfTwo(
                        () -> Http.post(port, "/api/orders", "{}", "Idempotency-Key", "k-a", "Idempotency-Key", "k-b")))
                .isEqualTo(1);
        assertThat(sentOnceOfTwo(() -> createOrder("k-large-" + UUID.randomUUID(), large)))
                .isEqualTo(1);
        assertThat(sentOnceOfTwo(() ->
                        Http.post(port, "/api/orders/o-1/cancel", "{}", "Idempotency-Key", "k-" + UUID.randomUUID())))
                .isEqualTo(1);
        assertThat(sentOnceOfTwo(() -> Http.post(port, "/api/orders", large))).isEqualTo(1);
        assertThat(ORDER_2.received()).hasSize(4);
        assertThat(ORDER.received()).hasSize(4);
        assertThat(Stream.concat(ORDER.received().stream(), ORDER_2.received().stream())
                        .map(request -> String.valueOf(request.header("Idempotency-Key"))))
                .as("none was given a key by the gateway: each has its own, is too large to hold, or is not a create")
                .noneMatch(key -> key.startsWith("gateway-"));
    }

    @Test
    void aKeyedCreateAnswered503IsNotSentAgain() {
        ORDER.answer("/api/orders", 503);
        ORDER_2.answer("/api/orders", 503);

        assertThat(createOrder("k-shed", "{}").statusCode()).isEqualTo(503);
        assertThat(ORDER.count("POST", "/api/orders") + ORDER_2.count("POST", "/api/orders"))
                .isEqualTo(1);
    }

    private HttpResponse<String> createOrder(String key, String body) {
        return Http.post(port, "/api/orders", body, "Idempotency-Key", key);
    }

    /**
     * Sends a request twice, once to each replica (round robin), and says how many of the two were not answered 200.
     * The breakers are closed again after each pair, so that the failures of one pair cannot open them for the next.
     */
    private int sentOnceOfTwo(Supplier<HttpResponse<String>> request) {
        int failed = 0;
        for (int i = 0; i < 2; i++) {
            failed += request.get().statusCode() == 200 ? 0 : 1;
        }
        breakers.getAllCircuitBreakers().forEach(CircuitBreaker::reset);
        return failed;
    }

    private static void assertServiceUnavailable(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
        assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
        assertThat(response.body())
                .contains(
                        "\"type\":\"urn:sagaflow:problem:SERVICE_UNAVAILABLE\"",
                        "\"title\":\"Service Unavailable\"",
                        "\"status\":503",
                        "\"code\":\"SERVICE_UNAVAILABLE\"",
                        "\"service\":\"payment\"");
    }
}
