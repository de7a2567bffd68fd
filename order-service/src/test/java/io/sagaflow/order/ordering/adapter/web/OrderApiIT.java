package io.sagaflow.order.ordering.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** What the order and saga APIs answer to bad requests (400 or 404 problem details, never a 500), and saga counts. */
@SagaflowIntegrationTest
class OrderApiIT {

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
    void anOrderWithoutCustomerOrLinesIsRefusedFieldByField() throws Exception {
        HttpResponse<String> response = post("/api/orders", """
                {"lineItems":[],"shippingAddress":" "}
                """);

        assertProblem(response, 400, "VALIDATION_FAILED");
        assertThat(response.body()).contains("customerId", "lineItems", "shippingAddress");
    }

    @Test
    void aLineWithANonPositiveQuantityIsRefused() throws Exception {
        HttpResponse<String> response = post("/api/orders", """
                {"customerId":"%s","lineItems":[{"productId":"%s","quantity":0}],"shippingAddress":"x"}
                """.formatted(UUID.randomUUID(), UUID.randomUUID()));

        assertProblem(response, 400, "VALIDATION_FAILED");
        assertThat(response.body()).contains("lineItems[0].quantity");
    }

    @Test
    void listLimitsOutsideTheirRangeAreRefused() throws Exception {
        assertProblem(get("/api/orders/customer/" + UUID.randomUUID() + "?limit=0"), 400, "VALIDATION_FAILED");
        assertProblem(get("/api/orders/customer/" + UUID.randomUUID() + "?limit=501"), 400, "VALIDATION_FAILED");
        assertProblem(get("/api/sagas?limit=0"), 400, "VALIDATION_FAILED");
        assertProblem(get("/api/sagas?status=LOST"), 400, "INVALID_STATUS");
    }

    @Test
    void listsWithinTheirLimitsAnswer() throws Exception {
        assertThat(get("/api/orders/customer/" + UUID.randomUUID() + "?limit=500")
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/api/sagas?limit=1&status=confirmed").statusCode()).isEqualTo(200);
    }

    @Test
    void malformedAndUnknownIdsAreProblemsToo() throws Exception {
        assertProblem(get("/api/orders/not-a-uuid"), 400, "INVALID_PARAMETER");
        assertProblem(get("/api/sagas/not-a-uuid"), 400, "INVALID_PARAMETER");
        assertProblem(get("/api/orders/" + UUID.randomUUID()), 404, "ORDER_NOT_FOUND");
        assertProblem(get("/api/sagas/" + UUID.randomUUID()), 404, "SAGA_NOT_FOUND");
    }

    @Test
    void sagaCountsAreByStatusWithTheRunningOnesSummed() throws Exception {
        Map<String, Object> before = counts();
        for (String status : List.of("RESERVING_STOCK", "COMPENSATING", "CONFIRMED")) {
            jdbc.update(
                    "insert into saga_view (saga_id, status, current_step, steps, started_at, updated_at)"
                            + " values (?, ?, 'X', '[]'::jsonb, now(), now())",
                    UUID.randomUUID(),
                    status);
        }

        Map<String, Object> after = counts();
        assertThat(((Number) after.get("running")).longValue() - ((Number) before.get("running")).longValue())
                .isEqualTo(2);
        assertThat(count(after, "CONFIRMED") - count(before, "CONFIRMED")).isEqualTo(1);
        assertThat(count(after, "COMPENSATING") - count(before, "COMPENSATING")).isEqualTo(1);
    }

    private Map<String, Object> counts() throws Exception {
        HttpResponse<String> response = get("/api/admin/sagas/counts");
        assertThat(response.statusCode()).isEqualTo(200);
        return json.readValue(response.body(), new TypeReference<>() {});
    }

    @SuppressWarnings("unchecked")
    private static long count(Map<String, Object> counts, String status) {
        Object n = ((Map<String, Object>) counts.get("byStatus")).get(status);
        return n == null ? 0 : ((Number) n).longValue();
    }

    private void assertProblem(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        Map<String, Object> problem = json.readValue(response.body(), new TypeReference<>() {});
        assertThat(problem).containsEntry("status", status).containsEntry("code", code);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
