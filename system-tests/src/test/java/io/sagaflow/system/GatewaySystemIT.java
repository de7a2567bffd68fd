package io.sagaflow.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sagaflow.system.GatewayClient.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The API gateway in front of the real services, everything through the gateway: two gateway processes (A and B)
 * whose members form one rate-limit cluster, in front of the four services (one order replica) as in
 * {@link OrderFulfilmentSystemIT}. JWT authentication and rate limiting are on, a breaker opens for {@link #OPEN_WAIT}
 * when half of its last 4 calls failed, and every call has {@link #TIME_LIMIT}. Each test is its own client (API
 * key), so its requests draw on its own rate-limit bucket; the last two freeze or stop a service and leave it running
 * again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewaySystemIT {

    private static final Duration SAGA_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMPENSATION_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration TIME_LIMIT = Duration.ofSeconds(2);
    private static final Duration OPEN_WAIT = Duration.ofSeconds(2);
    /** A bucket no test's own requests empty, but a flood does. */
    private static final int CAPACITY = 50;

    private static final double REFILL_PER_SECOND = 5;
    private static final List<String> SERVICES = List.of("account", "inventory", "order", "payment");

    private static final JwtIssuer ISSUER = JwtIssuer.generate("issuer");
    private static final JwtIssuer FORGER = JwtIssuer.generate("forger");
    private static final String USER = ISSUER.token("ann", List.of("CUSTOMER"));
    private static final String ADMIN = ISSUER.token("bob", List.of("ADMIN"));

    private static SagaflowSystem system;
    private static String customerId;
    private static String productId;

    @BeforeAll
    static void startSystem() throws Exception {
        Path publicKey = ISSUER.writePublicKey();
        Map<String, String> gateway = new LinkedHashMap<>();
        gateway.put("sagaflow.gateway.security.enabled", "true");
        gateway.put("spring.security.oauth2.resourceserver.jwt.public-key-location", "file:" + publicKey);
        gateway.put("sagaflow.gateway.rate-limit.enabled", "true");
        gateway.put("sagaflow.gateway.rate-limit.capacity", Integer.toString(CAPACITY));
        gateway.put("sagaflow.gateway.rate-limit.refill-per-second", Double.toString(REFILL_PER_SECOND));
        // A busy two-core box must not make the limiter give up on its cluster (it would let everything through).
        gateway.put("sagaflow.gateway.rate-limit.timeout", "1s");
        String breakers = "resilience4j.circuitbreaker.configs.default.";
        gateway.put(breakers + "sliding-window-type", "count-based");
        gateway.put(breakers + "sliding-window-size", "4");
        gateway.put(breakers + "minimum-number-of-calls", "4");
        gateway.put(breakers + "wait-duration-in-open-state", OPEN_WAIT.toMillis() + "ms");
        gateway.put(breakers + "permitted-number-of-calls-in-half-open-state", "1");
        gateway.put("resilience4j.timelimiter.configs.default.timeout-duration", TIME_LIMIT.toMillis() + "ms");
        system = SagaflowSystem.startWithGateways(1, SAGA_TIMEOUT, COMPENSATION_TIMEOUT, 2, gateway);

        // The two gateways found each other: one rate-limit cluster.
        GatewayClient admin = a("setup").withToken(ADMIN);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> admin.get("/actuator/health")
                                .json()
                                .at("/components/rateLimitCluster/details/members")
                                .asInt()
                        == 2);

        // First calls to cold services may take longer than the time limit: set up through the gateway until served.
        GatewayClient setup = a("setup");
        customerId = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> createCustomer(setup), id -> id != null);
        productId = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> createProduct(setup, 1_000, "10.00"), id -> id != null);
        // The order service learns of both from the services' events: wait until it takes an order for them.
        String warmUp = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> placeOrder(setup, 1), id -> id != null);
        awaitTerminal(setup, warmUp);
    }

    @AfterAll
    static void stopSystem() throws Exception {
        if (system != null) {
            system.close();
        }
    }

    @Test
    @Order(1)
    void everyPathReachesItsService() {
        GatewayClient client = a("routing");

        String email = "grace-" + UUID.randomUUID() + "@example.com";
        Answer created = client.post("/api/customers", Map.of("email", email, "name", "Grace Hopper"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String customer = created.json().get("customerId").asString();
        assertThat(client.get("/api/customers/" + customer).ok().get("email").asString())
                .isEqualTo(email);

        String product = createProduct(client, 7, "3.50");
        assertThat(product).isNotNull();
        assertThat(client.get("/api/products/" + product)
                        .ok()
                        .get("quantityOnHand")
                        .asInt())
                .isEqualTo(7);
        String holder = UUID.randomUUID().toString();
        JsonNode reserved = client.post(
                        "/api/products/" + product + "/stock/reserve", Map.of("quantity", 2, "orderId", holder))
                .ok();
        assertThat(reserved.get("quantityReserved").asInt()).isEqualTo(2);
        JsonNode released = client.post(
                        "/api/products/" + product + "/stock/release",
                        Map.of("quantity", 2, "orderId", holder, "reason", "gateway system test"))
                .ok();
        assertThat(released.get("quantityReserved").asInt()).isZero();

        String order = placeOrder(client, 2);
        assertThat(order).isNotNull();
        JsonNode confirmed = awaitTerminal(client, order);
        assertThat(confirmed.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(client.get("/api/orders/customer/" + customerId).ok().toString())
                .contains(order);
        assertThat(client.get("/api/sagas/" + order).ok().get("status").asString())
                .isEqualTo("CONFIRMED");
        JsonNode payments = client.get("/api/payments/order/" + order).ok();
        assertThat(payments).hasSize(1);
        assertThat(payments.get(0).get("status").asString()).isEqualTo("CAPTURED");
        String payment = payments.get(0).get("paymentId").asString();
        assertThat(client.get("/api/payments/" + payment).ok().get("orderId").asString())
                .isEqualTo(order);

        GatewayClient admin = client.withToken(ADMIN);
        JsonNode audit = admin.get("/api/admin/audit").ok();
        assertThat(audit.has("consistent")).as(audit.toString()).isTrue();
        assertThat(audit.get("violations").toString()).isEqualTo("[]");
        assertThat(admin.get("/api/admin/audit/stock").ok().get("consistent").asBoolean())
                .isTrue();
        assertThat(admin.get("/api/admin/audit/stock/reservations?limit=5").ok().has("reservations"))
                .isTrue();
        assertThat(admin.get("/api/admin/audit/payments?limit=5").ok().has("totalCaptured"))
                .isTrue();
        assertThat(admin.get("/api/admin/sagas/quarantined").ok().isArray()).isTrue();

        for (String service : SERVICES) {
            Answer docs = client.withToken(null).get("/api-docs/" + service);
            assertThat(docs.status()).as(service + ": " + docs).isEqualTo(200);
            assertThat(docs.json().has("openapi")).isTrue();
            assertThat(docs.json().at("/servers/0/url").asString())
                    .as("the document's server is the gateway")
                    .contains(":" + gateway(0).port);
        }

        Answer health = client.withToken(null).get("/actuator/health");
        assertThat(health.status()).as(health.toString()).isEqualTo(200);
        for (String service : SERVICES) {
            assertThat(health.json()
                            .at("/components/services/components/" + service + "/status")
                            .asString())
                    .as(service)
                    .isEqualTo("UP");
        }

        Answer unknown = client.get("/api/nope");
        assertProblem(unknown, 404, "NOT_FOUND");
    }

    @Test
    @Order(2)
    void correlationAndTraceHeadersComeBack() {
        GatewayClient client = b("correlation");
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String traceparent = "00-" + traceId + "-00f067aa0ba902b7-01";

        for (String path : List.of("/api/customers/" + customerId, "/api/nope")) {
            String correlationId = "gateway-system-" + UUID.randomUUID();
            Answer answer = client.get(path, "X-Correlation-Id", correlationId, "traceparent", traceparent);

            assertThat(answer.status()).as(answer.toString()).isIn(200, 404);
            assertThat(answer.headers().allValues("X-Correlation-Id")).containsExactly(correlationId);
            assertThat(answer.headers().allValues("traceparent"))
                    .singleElement()
                    .satisfies(next -> assertThat(next)
                            .matches("00-" + traceId + "-[0-9a-f]{16}-01")
                            .isNotEqualTo(traceparent));
        }

        Answer fresh = client.get("/api/customers/" + customerId);
        assertThat(fresh.header("X-Correlation-Id")).isPresent();
        assertThat(fresh.header("traceparent"))
                .hasValueSatisfying(value -> assertThat(value).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]"));
    }

    @Test
    @Order(3)
    void oneKeyFromTwoCallersPlacesTwoOrders_andEachCallerGetsOnlyItsOwnBack() {
        GatewayClient ann = a("keys");
        GatewayClient bob = ann.withToken(ADMIN);
        String key = UUID.randomUUID().toString();
        Map<String, Object> order = orderFor(customerId, productId, 1);

        Answer annFirst = ann.post("/api/orders", order, "Idempotency-Key", key);
        Answer bobFirst = bob.post("/api/orders", order, "Idempotency-Key", key);
        Answer annAgain = ann.post("/api/orders", order, "Idempotency-Key", key);

        // The gateway names each authenticated caller to the service (Sagaflow-Client), which keeps their keys
        // apart: bob's request is his own order, not a replay of ann's (ADR 0070).
        String annOrder = annFirst.ok().get("orderId").asString();
        String bobOrder = bobFirst.ok().get("orderId").asString();
        assertThat(bobOrder).isNotEqualTo(annOrder);
        assertThat(bobFirst.header("Idempotent-Replayed")).isEmpty();
        assertThat(annAgain.header("Idempotent-Replayed")).hasValue("true");
        assertThat(annAgain.ok().get("orderId").asString()).isEqualTo(annOrder);
        awaitTerminal(ann, annOrder);
        awaitTerminal(ann, bobOrder);
    }

    @Test
    @Order(4)
    void onlyValidTokensPass_andAdminPathsNeedTheAdminRole() {
        GatewayClient client = b("jwt");
        String customer = "/api/customers/" + customerId;

        Answer none = client.withToken(null).get(customer);
        assertProblem(none, 401, "UNAUTHORIZED");
        assertThat(none.header("WWW-Authenticate"))
                .hasValueSatisfying(c -> assertThat(c).startsWith("Bearer"));

        Answer forged =
                client.withToken(FORGER.token("mallory", List.of("ADMIN"))).get(customer);
        assertProblem(forged, 401, "UNAUTHORIZED");
        assertThat(forged.header("WWW-Authenticate"))
                .hasValueSatisfying(c -> assertThat(c).contains("invalid_token"));

        assertProblem(client.withToken(ISSUER.expired("ann", List.of("ADMIN"))).get(customer), 401, "UNAUTHORIZED");
        assertProblem(client.withToken("not-a-jwt").get(customer), 401, "UNAUTHORIZED");

        assertThat(client.withToken(USER).get(customer).ok().get("customerId").asString())
                .isEqualTo(customerId);

        for (String adminPath : List.of(
                "/api/admin/audit",
                "/api/admin/audit/stock",
                "/api/admin/audit/stock/reservations",
                "/api/admin/audit/payments",
                "/api/admin/sagas/quarantined")) {
            assertProblem(client.withToken(USER).get(adminPath), 403, "FORBIDDEN");
            assertThat(client.withToken(ADMIN).get(adminPath).status())
                    .as(adminPath)
                    .isEqualTo(200);
        }

        assertThat(client.withToken(null).get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(client.withToken(USER).get("/actuator/prometheus").status()).isEqualTo(403);
        assertThat(client.withToken(ADMIN).get("/actuator/prometheus").status()).isEqualTo(200);
    }

    @Test
    @Order(5)
    void oneClientHasOneBucket_whicheverGatewayItsRequestsReach() {
        String key = "flood-" + UUID.randomUUID();
        GatewayClient[] gateways = {new GatewayClient(gateway(0), USER, key), new GatewayClient(gateway(1), USER, key)};
        String path = "/api/customers/" + customerId;
        int requests = 3 * CAPACITY;
        int allowed = 0;
        int[] rejectedBy = new int[2];
        Answer rejection = null;

        long started = System.nanoTime();
        for (int i = 0; i < requests; i++) {
            Answer answer = gateways[i % 2].get(path);
            assertThat(answer.header("RateLimit-Limit"))
                    .as("the limiter answered request " + i)
                    .hasValue(Integer.toString(CAPACITY));
            if (answer.status() == 429) {
                rejectedBy[i % 2]++;
                rejection = answer;
            } else {
                assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
                allowed++;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        // One bucket: the burst plus what refilled meanwhile. Two buckets would have let about twice that through.
        assertThat(allowed).isGreaterThanOrEqualTo(CAPACITY);
        assertThat((double) allowed)
                .as("allowed in %.2f s", seconds)
                .isLessThanOrEqualTo(CAPACITY + REFILL_PER_SECOND * seconds + 1);
        assertThat(rejectedBy[0]).as("429 from gateway A").isPositive();
        assertThat(rejectedBy[1]).as("429 from gateway B").isPositive();

        JsonNode problem = assertProblem(rejection, 429, "TOO_MANY_REQUESTS");
        assertThat(problem.get("limit").asInt()).isEqualTo(CAPACITY);
        assertThat(rejection.header("Retry-After"))
                .hasValueSatisfying(s -> assertThat(Integer.parseInt(s)).isBetween(1, 2));
        assertThat(rejection.header("RateLimit-Remaining")).hasValue("0");
        assertThat(rejection.header("RateLimit-Reset"))
                .hasValueSatisfying(s ->
                        assertThat(Integer.parseInt(s)).isBetween(1, (int) Math.ceil(CAPACITY / REFILL_PER_SECOND)));
        assertThat(rejection.header("X-Correlation-Id")).isPresent();

        // Another client's bucket is untouched, on either gateway.
        for (GatewayClient gateway : gateways) {
            Answer other = gateway.withApiKey("other-" + UUID.randomUUID()).get(path);
            assertThat(other.status()).isEqualTo(200);
            assertThat(other.header("RateLimit-Remaining")).hasValue(Integer.toString(CAPACITY - 1));
        }
    }

    @Test
    @Order(6)
    void aFrozenServiceIsA504AtTheTimeLimit() throws Exception {
        GatewayClient client = b("frozen");
        String path = "/api/payments/order/" + UUID.randomUUID();
        assertThat(client.get(path).status()).isEqualTo(200);

        system.payment.freeze();
        Answer timedOut;
        try {
            timedOut = client.get(path);
        } finally {
            system.payment.thaw();
        }

        JsonNode problem = assertProblem(timedOut, 504, "GATEWAY_TIMEOUT");
        assertThat(problem.get("service").asString()).isEqualTo("payment");
        assertThat(timedOut.took())
                .as("answered at the time limit")
                .isBetween(TIME_LIMIT.minusMillis(100), TIME_LIMIT.plusSeconds(2));
        assertThat(timedOut.header("X-Correlation-Id")).isPresent();

        // The service answers again once it runs, and its breaker is (or soon is again) closed.
        GatewayClient admin = b("frozen-admin").withToken(ADMIN);
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> client.get(path).status() == 200
                        && breakerState(admin, "payment").equals("closed"));
    }

    @Test
    @Order(7)
    void aStoppedServiceOpensItsBreaker_whichClosesWhenTheServiceIsBack() throws Exception {
        GatewayClient client = a("stopped");
        GatewayClient admin = a("stopped-admin").withToken(ADMIN);
        String path = "/api/customers/" + customerId;
        assertThat(client.get(path).status()).isEqualTo(200);
        assertThat(breakerState(admin, "account")).isEqualTo("closed");

        system.account.kill();
        try {
            // Half of the last 4 calls failing opens the breaker: at most 4 calls find the service unreachable.
            int unreachableCalls = 0;
            Answer open = null;
            while (open == null) {
                Answer answer = client.get(path);
                JsonNode problem = assertProblem(answer, 503, "SERVICE_UNAVAILABLE");
                assertThat(problem.get("service").asString()).isEqualTo("account");
                if (problem.get("detail").asString().contains("stopped calling it")) {
                    open = answer;
                } else {
                    assertThat(problem.get("detail").asString()).contains("cannot be reached");
                    assertThat(answer.header("Retry-After")).hasValue("1");
                    assertThat(answer.took()).as("refused at once").isLessThan(Duration.ofSeconds(2));
                    assertThat(++unreachableCalls)
                            .as("calls before the breaker opened")
                            .isLessThanOrEqualTo(4);
                }
            }
            assertThat(unreachableCalls).isPositive();
            assertThat(breakerState(admin, "account")).isEqualTo("open");

            assertThat(open.header("Retry-After"))
                    .hasValueSatisfying(s -> assertThat(Integer.parseInt(s)).isBetween(1, 2));
            assertThat(open.took())
                    .as("an open breaker answers without calling")
                    .isLessThan(Duration.ofMillis(500));
            Answer write = client.post(
                    "/api/customers", Map.of("email", "x-" + UUID.randomUUID() + "@example.com", "name", "X"));
            assertProblem(write, 503, "SERVICE_UNAVAILABLE");
            // The other gateway's breaker is its own: it still tries, and finds nobody.
            Answer other = b("stopped").get(path);
            assertProblem(other, 503, "SERVICE_UNAVAILABLE");
            assertThat(other.body()).contains("cannot be reached");
        } finally {
            system.restart(system.account);
        }

        // The restart took longer than the open wait: the next call is the trial, and it closes the breaker.
        Thread.sleep(OPEN_WAIT.toMillis());
        Answer back = client.get(path);
        assertThat(back.status()).as(back.toString()).isEqualTo(200);
        assertThat(back.json().get("customerId").asString()).isEqualTo(customerId);
        assertThat(breakerState(admin, "account")).isEqualTo("closed");
        assertThat(client.get(path).status()).isEqualTo(200);
        assertThat(b("stopped").get(path).status()).isEqualTo(200);
    }

    private static final Pattern BREAKER_STATE =
            Pattern.compile("^resilience4j_circuitbreaker_state\\{([^}]*)} 1\\.0$");

    /** The breaker's state as the gateway's Prometheus metrics show it: closed, open, half_open... */
    private static String breakerState(GatewayClient admin, String name) {
        String metrics = admin.get("/actuator/prometheus").body();
        for (String line : metrics.split("\n")) {
            Matcher metric = BREAKER_STATE.matcher(line.strip());
            if (metric.matches() && metric.group(1).contains("name=\"" + name + "\"")) {
                Matcher state = Pattern.compile("state=\"([a-z_]+)\"").matcher(metric.group(1));
                if (state.find()) {
                    return state.group(1);
                }
            }
        }
        throw new AssertionError("no state of breaker " + name + " in the gateway's metrics");
    }

    private static JsonNode assertProblem(Answer answer, int status, String code) {
        assertThat(answer).isNotNull();
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.header("Content-Type"))
                .as(answer.toString())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = answer.json();
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("code").asString()).isEqualTo(code);
        assertThat(problem.get("type").asString()).isEqualTo("urn:sagaflow:problem:" + code);
        return problem;
    }

    private static ServiceProcess gateway(int index) {
        return system.gateways.get(index);
    }

    /** A client of gateway A with the user token and its own rate-limit bucket. */
    private static GatewayClient a(String client) {
        return new GatewayClient(gateway(0), USER, client + "-" + UUID.randomUUID());
    }

    /** A client of gateway B with the user token and its own rate-limit bucket. */
    private static GatewayClient b(String client) {
        return new GatewayClient(gateway(1), USER, client + "-" + UUID.randomUUID());
    }

    private static String createCustomer(GatewayClient client) {
        Answer created = client.post(
                "/api/customers", Map.of("email", "ada-" + UUID.randomUUID() + "@example.com", "name", "Ada Lovelace"));
        return created.status() == 201 ? created.json().get("customerId").asString() : null;
    }

    private static String createProduct(GatewayClient client, int quantity, String price) {
        Answer created = client.post("/api/products", Api.newProduct(quantity, price));
        return created.status() == 201 ? created.json().get("productId").asString() : null;
    }

    private static Map<String, Object> orderFor(String customer, String product, int quantity) {
        return Map.of(
                "customerId",
                customer,
                "lineItems",
                List.of(Map.of("productId", product, "quantity", quantity)),
                "shippingAddress",
                "1 Main St");
    }

    /** The new order's id, or null if the order was not taken. */
    private static String placeOrder(GatewayClient client, int quantity) {
        Answer placed = client.post("/api/orders", orderFor(customerId, productId, quantity));
        if (placed.status() != 201) {
            return null;
        }
        assertThat(placed.json().get("status").asString()).isEqualTo("PENDING");
        return placed.json().get("orderId").asString();
    }

    private static JsonNode awaitTerminal(GatewayClient client, String order) {
        return await().atMost(SAGA_TIMEOUT.multipliedBy(2))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> client.get("/api/orders/" + order).json(),
                        body -> body != null
                                && body.has("status")
                                && List.of("CONFIRMED", "CANCELLED")
                                        .contains(body.get("status").asString()));
    }
}
