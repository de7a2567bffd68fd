package io.sagaflow.gateway.routing;

import static io.sagaflow.gateway.support.FakeServices.ACCOUNT;
import static io.sagaflow.gateway.support.FakeServices.INVENTORY;
import static io.sagaflow.gateway.support.FakeServices.ORDER;
import static io.sagaflow.gateway.support.FakeServices.ORDER_2;
import static io.sagaflow.gateway.support.FakeServices.PAYMENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.GatewayTestBase;
import io.sagaflow.gateway.support.Http;
import io.sagaflow.gateway.support.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class RoutingIT extends GatewayTestBase {

    static Stream<Arguments> everyPath() {
        return Stream.of(
                Arguments.of("/api/customers", "account"),
                Arguments.of("/api/customers/7d3c/status", "account"),
                Arguments.of("/api/products", "inventory"),
                Arguments.of("/api/products/p-1/stock/reserve", "inventory"),
                Arguments.of("/api/admin/audit/stock", "inventory"),
                Arguments.of("/api/admin/audit/stock/reservations", "inventory"),
                Arguments.of("/api/orders", "order"),
                Arguments.of("/api/orders/customer/c-1", "order"),
                Arguments.of("/api/sagas", "order"),
                Arguments.of("/api/sagas/s-1", "order"),
                Arguments.of("/api/admin/sagas/quarantined", "order"),
                Arguments.of("/api/admin/audit", "order"),
                Arguments.of("/api/payments/pay-1", "payment"),
                Arguments.of("/api/payments/order/o-1", "payment"),
                Arguments.of("/api/admin/audit/payments", "payment"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyPath")
    void everyPathReachesItsService(String path, String service) {
        HttpResponse<String> response = Http.get(port, path + "?limit=5");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"service\":\"" + service + "\"", "\"path\":\"" + path + "\"");
        FakeService.Received received = receivedBy(service, path);
        assertThat(received.query()).isEqualTo("limit=5");
    }

    @Test
    void aWriteIsForwardedWithItsBodyAndAnswerUnchanged() {
        PAYMENT.answer("/api/payments", 201);

        HttpResponse<String> response = Http.post(port, "/api/payments", "{\"orderId\":\"o-1\",\"amount\":12.5}");

        assertThat(response.statusCode()).isEqualTo(201);
        FakeService.Received received = PAYMENT.received().getLast();
        assertThat(received.method()).isEqualTo("POST");
        assertThat(received.body()).isEqualTo("{\"orderId\":\"o-1\",\"amount\":12.5}");
        assertThat(received.header("Content-Type")).startsWith("application/json");
    }

    /** The gateway parses no parts: the body reaches the service as it came, which judges its type (415 there). */
    @Test
    void aBodyNamedMultipartIsForwardedUnparsed() {
        PAYMENT.answer("/api/payments", 201);

        HttpResponse<String> response = Http.send(Http.request(port, "/api/payments")
                .header("Content-Type", "multipart/form-data")
                .POST(HttpRequest.BodyPublishers.ofString("{\"orderId\":\"o-1\"}"))
                .build());

        assertThat(response.statusCode()).isEqualTo(201);
        FakeService.Received received = PAYMENT.received().getLast();
        assertThat(received.body()).isEqualTo("{\"orderId\":\"o-1\"}");
        assertThat(received.header("Content-Type")).startsWith("multipart/form-data");
    }

    /**
     * Found by fuzzing with Schemathesis: a parameter without a name was a 500. (Bytes that are not UTF-8 pass the
     * gateway, which copies them as they are, and are the service's to refuse.)
     */
    @Test
    void aQueryStringTomcatCannotParseIsA400_andNotForwarded() {
        HttpResponse<String> response = Http.get(port, "/api/products?limit=5&=0");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"code\":\"INVALID_PARAMETER\"", "\"status\":400");
        // A name of characters Spring Security's firewall does not allow (U+FBCC4, unassigned) was a 500 too.
        HttpResponse<String> rejected = Http.get(port, "/api/products?%F1%BB%B3%84=1");
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body()).contains("\"code\":\"MALFORMED_REQUEST\"", "\"status\":400");
        assertThat(INVENTORY.count("GET", "/api/products")).isZero();
    }

    /** Tomcat refuses a URI holding an encoded NUL before the gateway sees it: a problem still, not its HTML page. */
    @Test
    void aUriTomcatRefusesIsA400Problem_andNotForwarded() {
        HttpResponse<String> response = Http.get(port, "/api/products/%00");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"code\":\"BAD_REQUEST\"", "\"status\":400");
        assertThat(INVENTORY.received()).noneMatch(r -> r.path().startsWith("/api/products/"));
    }

    @Test
    void aCallersOwnClientNameNeverReachesAService() {
        PAYMENT.answer("/api/payments", 201);

        Http.post(
                port,
                "/api/payments",
                "{\"orderId\":\"o-1\",\"amount\":12.5}",
                "Idempotency-Key",
                "k-1",
                "Sagaflow-Client",
                "somebody-else");

        FakeService.Received received = PAYMENT.received().getLast();
        assertThat(received.header("Idempotency-Key")).isEqualTo("k-1");
        assertThat(received.header("Sagaflow-Client")).isNull();
    }

    @Test
    void everyMethodTheServicesUseIsProxied() {
        for (String method : List.of("PUT", "PATCH", "DELETE")) {
            HttpResponse<String> response = Http.send(Http.request(port, "/api/orders/o-1/cancel")
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString("{\"reason\":\"test\"}"))
                    .build());

            assertThat(response.statusCode()).as(method).isEqualTo(200);
            FakeService.Received received = receivedBy("order", "/api/orders/o-1/cancel");
            assertThat(received.body()).isEqualTo("{\"reason\":\"test\"}");
            ORDER.received().clear();
            ORDER_2.received().clear();
        }
    }

    @Test
    void requestsAreSpreadOverTheReplicasOfAService() {
        for (int i = 0; i < 6; i++) {
            assertThat(Http.get(port, "/api/orders/o-" + i).statusCode()).isEqualTo(200);
        }

        assertThat(ORDER.received()).hasSize(3);
        assertThat(ORDER_2.received()).hasSize(3);
    }

    @Test
    void anUnknownPathIsA404Problem() {
        HttpResponse<String> response = Http.get(port, "/api/nothing-here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body())
                .contains("\"type\":\"urn:sagaflow:problem:NOT_FOUND\"", "\"code\":\"NOT_FOUND\"", "\"status\":404");
        assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
    }

    @Test
    void healthShowsEveryService_andAStoppedOneAsDown() {
        HttpResponse<String> up = Http.get(port, "/actuator/health");
        assertThat(up.statusCode()).isEqualTo(200);
        JsonNode services = Json.read(up.body()).path("components").path("services");
        assertThat(services.path("status").asString()).isEqualTo("UP");
        for (String service : List.of("account", "inventory", "order", "payment")) {
            assertThat(services.path("components").path(service).path("status").asString())
                    .as(service)
                    .isEqualTo("UP");
        }

        PAYMENT.stop();
        HttpResponse<String> down = Http.get(port, "/actuator/health");

        assertThat(down.statusCode()).isEqualTo(503);
        JsonNode afterStop = Json.read(down.body()).path("components").path("services");
        assertThat(afterStop.path("components").path("payment").path("status").asString())
                .isEqualTo("DOWN");
        assertThat(afterStop.path("components").path("account").path("status").asString())
                .isEqualTo("UP");
        assertThat(Http.get(port, "/actuator/health/readiness").statusCode())
                .as("a stopped service does not make the gateway unready")
                .isEqualTo(200);
    }

    @Test
    void oneSwaggerUiListsEveryServicesApi() {
        HttpResponse<String> config = Http.get(port, "/v3/api-docs/swagger-config");
        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(config.body())
                .contains("/api-docs/account", "/api-docs/inventory", "/api-docs/order", "/api-docs/payment");

        HttpResponse<String> orderApi = Http.get(port, "/api-docs/order");
        assertThat(orderApi.statusCode()).isEqualTo(200);
        assertThat(orderApi.body())
                .as("the document's server is the gateway")
                .contains("\"title\":\"order\"", "\"url\":\"http://127.0.0.1:" + port + "\"");
        assertThat(Http.get(port, "/swagger-ui/index.html").statusCode()).isEqualTo(200);
    }

    private static FakeService.Received receivedBy(String service, String path) {
        return Stream.of(ACCOUNT, INVENTORY, ORDER, ORDER_2, PAYMENT)
                .filter(fake -> fake.name().equals(service))
                .flatMap(fake -> fake.received().stream())
                .filter(received -> received.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " did not reach " + service));
    }
}
