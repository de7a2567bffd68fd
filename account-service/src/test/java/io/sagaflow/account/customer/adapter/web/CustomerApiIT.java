package io.sagaflow.account.customer.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The customers API over HTTP, on real PostgreSQL and Hazelcast. */
@SagaflowIntegrationTest
class CustomerApiIT {

    @Value("${local.server.port}")
    int port;

    @Autowired
    JsonMapper json;

    @Autowired
    JdbcTemplate jdbc;

    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void closeClient() {
        http.close();
    }

    @Test
    void registeringACustomerAnswers201WithLocationAndTheActiveCustomer() throws Exception {
        String email = uniqueEmail();
        HttpResponse<String> response = post("/api/customers", """
                {"email":"%s","name":" Ada Lovelace ","address":"12 St James's Sq","phone":"+44 20 7946 0000"}
                """.formatted(email.toUpperCase()));

        assertThat(response.statusCode()).isEqualTo(201);
        Map<String, Object> body = object(response);
        assertThat(body)
                .containsOnlyKeys("customerId", "email", "name", "address", "phone", "status", "createdAt", "updatedAt")
                .containsEntry("email", email)
                .containsEntry("name", "Ada Lovelace")
                .containsEntry("address", "12 St James's Sq")
                .containsEntry("phone", "+44 20 7946 0000")
                .containsEntry("status", "ACTIVE");
        UUID id = UUID.fromString((String) body.get("customerId"));
        Instant createdAt = Instant.parse((String) body.get("createdAt"));
        assertThat(body.get("updatedAt")).isEqualTo(body.get("createdAt"));
        assertThat(createdAt)
                .isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
        // Relative: an absolute Location would name this replica's own address, not the gateway's.
        assertThat(response.headers().firstValue("Location")).hasValue("/api/customers/" + id);

        HttpResponse<String> fetched =
                get(URI.create(response.headers().firstValue("Location").orElseThrow())
                        .getPath());
        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(object(fetched)).isEqualTo(body);
    }

    @Test
    void optionalFieldsMayBeLeftOut() throws Exception {
        HttpResponse<String> response = register(uniqueEmail());
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(object(response)).containsEntry("address", null).containsEntry("phone", null);
    }

    @Test
    void anUnknownCustomerIsA404WithItsCode() throws Exception {
        HttpResponse<String> response = get("/api/customers/" + UUID.randomUUID());
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(object(response)).containsEntry("code", "CUSTOMER_NOT_FOUND");
    }

    @Test
    void aMalformedCustomerIdIsA400() throws Exception {
        HttpResponse<String> response = get("/api/customers/not-a-uuid");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(object(response)).containsEntry("code", "INVALID_PARAMETER");

        HttpResponse<String> patch = patch("/api/customers/not-a-uuid/status", "{\"status\":\"SUSPENDED\"}");
        assertThat(patch.statusCode()).isEqualTo(400);
    }

    @Test
    void malformedJsonIsA400() throws Exception {
        HttpResponse<String> response = post("/api/customers", "{\"email\": \"a@b.c\", ");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(object(response)).containsEntry("code", "MALFORMED_REQUEST");

        HttpResponse<String> empty = post("/api/customers", "");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(object(empty)).containsEntry("code", "MALFORMED_REQUEST");
    }

    @Test
    void anInvalidEmailOrMissingNameIsA400ListingTheFields() throws Exception {
        HttpResponse<String> invalidEmail = post("/api/customers", "{\"email\":\"not-an-email\",\"name\":\"Ada\"}");
        assertThat(invalidEmail.statusCode()).isEqualTo(400);
        assertThat(object(invalidEmail)).containsEntry("code", "VALIDATION_FAILED");
        assertThat(invalidEmail.body()).contains("\"field\":\"email\"");

        HttpResponse<String> blank = post("/api/customers", "{\"email\":\" \",\"name\":\"\"}");
        assertThat(blank.statusCode()).isEqualTo(400);
        assertThat(blank.body()).contains("\"field\":\"email\"").contains("\"field\":\"name\"");

        HttpResponse<String> longName =
                post("/api/customers", "{\"email\":\"%s\",\"name\":\"%s\"}".formatted(uniqueEmail(), "n".repeat(201)));
        assertThat(longName.statusCode()).isEqualTo(400);
        assertThat(longName.body()).contains("\"field\":\"name\"");
    }

    @Test
    void aSecondCustomerWithTheSameEmailInAnyCaseIsA409() throws Exception {
        String email = uniqueEmail();
        assertThat(register(email).statusCode()).isEqualTo(201);

        HttpResponse<String> again = register(email.toUpperCase());
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(object(again)).containsEntry("code", "EMAIL_ALREADY_REGISTERED");
        assertThat(customersWithEmail(email)).isEqualTo(1);
    }

    @Test
    void concurrentRegistrationsOfOneEmailCreateExactlyOneCustomer() throws Exception {
        String email = uniqueEmail();
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(racers)) {
            for (int i = 0; i < racers; i++) {
                String variant = i % 2 == 0 ? email : email.toUpperCase();
                results.add(pool.submit(() -> {
                    start.await();
                    return register(variant);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> result : results) {
                HttpResponse<String> response = result.get(60, TimeUnit.SECONDS);
                statuses.add(response.statusCode());
                if (response.statusCode() == 409) {
                    assertThat(object(response)).containsEntry("code", "EMAIL_ALREADY_REGISTERED");
                }
            }
            assertThat(statuses)
                    .containsOnly(201, 409)
                    .filteredOn(status -> status == 201)
                    .hasSize(1);
        }
        assertThat(customersWithEmail(email)).isEqualTo(1);
        assertThat(jdbc.queryForObject(
                        "select count(*) from es_event where type = 'CustomerRegistered' and payload->>'email' = ?",
                        Long.class,
                        email))
                .isEqualTo(1);
    }

    @Test
    void aRegistrationMadeAgainWithItsIdempotencyKeyIsAnsweredWithTheFirstCustomer_andCounted() throws Exception {
        String email = uniqueEmail();
        String key = UUID.randomUUID().toString();
        double replayedBefore = repeats("replayed");
        HttpResponse<String> first = post("/api/customers", key, """
                {"email":"%s","name":"Ada","phone":"+44 1"}""".formatted(email));
        // The same request, as a client would send it again: members in another order, other white space, the key
        // as a structured-field string.
        HttpResponse<String> again = post("/api/customers", "\"" + key + "\"", """
                { "phone": "+44 1", "name": "Ada", "email": "%s" }
                """.formatted(email));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(again.headers().firstValue("Location"))
                .isEqualTo(first.headers().firstValue("Location"));
        assertThat(object(again)).isEqualTo(object(first));
        assertThat(customersWithEmail(email)).isEqualTo(1);
        assertThat(repeats("replayed") - replayedBefore).isEqualTo(1);
    }

    /** {@code sagaflow_idempotency_repeats_total} of the registrations, as Prometheus scrapes it; 0 before any. */
    private double repeats(String outcome) throws Exception {
        String sample = "sagaflow_idempotency_repeats_total{outcome=\"%s\",scope=\"customers\"} ".formatted(outcome);
        return get("/actuator/prometheus")
                .body()
                .lines()
                .filter(line -> line.startsWith(sample))
                .mapToDouble(line -> Double.parseDouble(line.substring(sample.length())))
                .sum();
    }

    @Test
    void concurrentRequestsWithOneKeyRegisterOneCustomerAndAllAnswerIt() throws Exception {
        String email = uniqueEmail();
        String key = UUID.randomUUID().toString();
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(racers)) {
            for (int i = 0; i < racers; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return post("/api/customers", key, "{\"email\":\"%s\",\"name\":\"Ada\"}".formatted(email));
                }));
            }
            start.countDown();
            List<String> ids = new ArrayList<>();
            int replayed = 0;
            for (Future<HttpResponse<String>> result : results) {
                HttpResponse<String> response = result.get(60, TimeUnit.SECONDS);
                ids.add(customerId(response));
                replayed += response.headers().firstValue("Idempotent-Replayed").isPresent() ? 1 : 0;
            }
            assertThat(ids).hasSize(racers).containsOnly(ids.getFirst());
            assertThat(replayed).isEqualTo(racers - 1);
        }
        assertThat(customersWithEmail(email)).isEqualTo(1);
    }

    @Test
    void aKeyReusedForAnotherRequestIsA422_andAMalformedKeyA400_registeringNobody() throws Exception {
        String key = UUID.randomUUID().toString();
        String email = uniqueEmail();
        double refusedBefore = repeats("refused");
        assertThat(post("/api/customers", key, "{\"email\":\"%s\",\"name\":\"Ada\"}".formatted(email))
                        .statusCode())
                .isEqualTo(201);
        String other = uniqueEmail();

        HttpResponse<String> reused =
                post("/api/customers", key, "{\"email\":\"%s\",\"name\":\"Ada\"}".formatted(other));
        HttpResponse<String> malformed =
                post("/api/customers", "\"unterminated", "{\"email\":\"%s\",\"name\":\"Ada\"}".formatted(other));
        HttpResponse<String> tooLong =
                post("/api/customers", "k".repeat(256), "{\"email\":\"%s\",\"name\":\"Ada\"}".formatted(other));

        assertThat(reused.statusCode()).isEqualTo(422);
        assertThat(reused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(object(reused)).containsEntry("code", "IDEMPOTENCY_KEY_REUSED");
        for (HttpResponse<String> bad : List.of(malformed, tooLong)) {
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(object(bad)).containsEntry("code", "INVALID_IDEMPOTENCY_KEY");
        }
        assertThat(customersWithEmail(other)).isZero();
        assertThat(customersWithEmail(email)).isEqualTo(1);
        assertThat(repeats("refused") - refusedBefore).isEqualTo(1);
    }

    @Test
    void callersNamedByTheGatewayHaveKeysOfTheirOwn() throws Exception {
        String key = UUID.randomUUID().toString();
        String annEmail = uniqueEmail();
        String bobEmail = uniqueEmail();
        String ann = "{\"email\":\"%s\",\"name\":\"Ann\"}".formatted(annEmail);

        HttpResponse<String> annFirst = postAs("ann", key, ann);
        HttpResponse<String> bobFirst = postAs("bob", key, "{\"email\":\"%s\",\"name\":\"Bob\"}".formatted(bobEmail));
        HttpResponse<String> annAgain = postAs("ann", key, ann);
        HttpResponse<String> bobAsAnn = postAs("bob", key, ann);
        HttpResponse<String> unnamed = post("/api/customers", key, ann.replace(annEmail, uniqueEmail()));
        HttpResponse<String> misnamed = postAs("ann smith", UUID.randomUUID().toString(), ann);

        // The same key from two callers is two requests: each registers its customer.
        assertThat(customerId(bobFirst)).isNotEqualTo(customerId(annFirst));
        // Made again by its caller, it is answered with that caller's customer, and only by that caller.
        assertThat(annAgain.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(customerId(annAgain)).isEqualTo(customerId(annFirst));
        assertThat(bobAsAnn.statusCode()).isEqualTo(422);
        assertThat(object(bobAsAnn)).containsEntry("code", "IDEMPOTENCY_KEY_REUSED");
        // A request that names no caller (straight to the service) has the key space without a name.
        assertThat(unnamed.statusCode()).isEqualTo(201);
        assertThat(unnamed.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(misnamed.statusCode()).isEqualTo(400);
        assertThat(object(misnamed)).containsEntry("code", "INVALID_CLIENT");
        assertThat(customersWithEmail(annEmail)).isEqualTo(1);
        assertThat(customersWithEmail(bobEmail)).isEqualTo(1);
    }

    @Test
    void statusChangesAreServedFreshAndClosedIsFinal() throws Exception {
        String id = customerId(register(uniqueEmail()));
        String path = "/api/customers/" + id;
        assertThat(object(get(path))).containsEntry("status", "ACTIVE");

        HttpResponse<String> suspended =
                patch(path + "/status", "{\"status\":\"SUSPENDED\",\"reason\":\"chargeback\"}");
        assertThat(suspended.statusCode()).isEqualTo(200);
        assertThat(object(suspended)).containsEntry("status", "SUSPENDED").containsEntry("customerId", id);
        assertThat(object(get(path))).containsEntry("status", "SUSPENDED");

        assertThat(patch(path + "/status", "{\"status\":\"ACTIVE\",\"reason\":\"resolved\"}")
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> closed = patch(path + "/status", "{\"status\":\"CLOSED\",\"reason\":\"asked to leave\"}");
        assertThat(closed.statusCode()).isEqualTo(200);
        assertThat(object(get(path))).containsEntry("status", "CLOSED");

        HttpResponse<String> reopened = patch(path + "/status", "{\"status\":\"ACTIVE\",\"reason\":\"came back\"}");
        assertThat(reopened.statusCode()).isEqualTo(409);
        assertThat(object(reopened)).containsEntry("code", "CUSTOMER_CLOSED");
        assertThat(object(get(path))).containsEntry("status", "CLOSED");
        assertThat(statusChangesOf(id)).containsExactly("SUSPENDED", "ACTIVE", "CLOSED");
    }

    @Test
    void settingTheCurrentStatusAgainAnswers200WithoutANewEvent() throws Exception {
        HttpResponse<String> created = register(uniqueEmail());
        String id = customerId(created);

        HttpResponse<String> same =
                patch("/api/customers/" + id + "/status", "{\"status\":\"ACTIVE\",\"reason\":\"x\"}");
        assertThat(same.statusCode()).isEqualTo(200);
        assertThat(object(same)).isEqualTo(object(created));
        assertThat(statusChangesOf(id)).isEmpty();
    }

    @Test
    void anUnknownOrMissingStatusIsA400AndAnUnknownCustomerA404() throws Exception {
        String id = customerId(register(uniqueEmail()));
        for (String body : List.of("{\"status\":\"DELETED\"}", "{\"status\":\"active\"}", "{\"reason\":\"none\"}")) {
            HttpResponse<String> response = patch("/api/customers/" + id + "/status", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(object(response)).as(body).containsEntry("code", "VALIDATION_FAILED");
        }
        HttpResponse<String> unknown =
                patch("/api/customers/" + UUID.randomUUID() + "/status", "{\"status\":\"SUSPENDED\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(object(unknown)).containsEntry("code", "CUSTOMER_NOT_FOUND");
        assertThat(statusChangesOf(id)).isEmpty();
    }

    @Test
    void theListShowsTheNewestCustomersFirst() throws Exception {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(customerId(register(uniqueEmail())));
        }
        HttpResponse<String> response = get("/api/customers?limit=3");
        assertThat(response.statusCode()).isEqualTo(200);
        List<Map<String, Object>> listed = json.readValue(response.body(), new TypeReference<>() {});
        assertThat(listed)
                .extracting(customer -> customer.get("customerId"))
                .containsExactly(created.get(2), created.get(1), created.get(0));

        List<Map<String, Object>> byDefault =
                json.readValue(get("/api/customers").body(), new TypeReference<>() {});
        assertThat(byDefault).hasSizeBetween(3, 20);
    }

    @Test
    void aLimitOutside1To100IsA400() throws Exception {
        for (String limit : List.of("0", "101", "-1")) {
            HttpResponse<String> response = get("/api/customers?limit=" + limit);
            assertThat(response.statusCode()).as(limit).isEqualTo(400);
            assertThat(object(response)).as(limit).containsEntry("code", "VALIDATION_FAILED");
        }
        HttpResponse<String> notANumber = get("/api/customers?limit=many");
        assertThat(notANumber.statusCode()).isEqualTo(400);
        assertThat(object(notANumber)).containsEntry("code", "INVALID_PARAMETER");
        assertThat(get("/api/customers?limit=100").statusCode()).isEqualTo(200);
    }

    @Test
    void theOpenApiDocumentDescribesTheCustomersApi() throws Exception {
        HttpResponse<String> response = get("/v3/api-docs");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("/api/customers").contains("/api/customers/{customerId}/status");
    }

    private long customersWithEmail(String email) {
        return jdbc.queryForObject("select count(*) from customer_view where email = ?", Long.class, email);
    }

    private List<String> statusChangesOf(String customerId) {
        return jdbc.queryForList(
                "select payload->>'status' from es_event where stream_id = ? and type = 'CustomerStatusChanged'"
                        + " order by version",
                String.class,
                "customer-" + customerId);
    }

    private static String uniqueEmail() {
        return "c-" + UUID.randomUUID() + "@example.com";
    }

    private HttpResponse<String> register(String email) throws Exception {
        return post("/api/customers", "{\"email\":\"%s\",\"name\":\"Customer\"}".formatted(email));
    }

    private String customerId(HttpResponse<String> created) {
        assertThat(created.statusCode()).isEqualTo(201);
        return (String) object(created).get("customerId");
    }

    private Map<String, Object> object(HttpResponse<String> response) {
        return json.readValue(response.body(), new TypeReference<>() {});
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(
                request(path).POST(BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String idempotencyKey, String body) throws Exception {
        return http.send(
                request(path)
                        .header("Idempotency-Key", idempotencyKey)
                        .POST(BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A registration through the gateway by an authenticated caller, whom the gateway names in Sagaflow-Client. */
    private HttpResponse<String> postAs(String client, String idempotencyKey, String body) throws Exception {
        return http.send(
                request("/api/customers")
                        .header("Sagaflow-Client", client)
                        .header("Idempotency-Key", idempotencyKey)
                        .POST(BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> patch(String path, String body) throws Exception {
        return http.send(
                request(path).method("PATCH", BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json");
    }
}
