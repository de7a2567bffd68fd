package io.sagaflow.gateway.admission;

import static io.sagaflow.gateway.support.FakeServices.INVENTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.gateway.ApiGatewayApplication;
import io.sagaflow.gateway.support.FakeServicesTestBase;
import io.sagaflow.gateway.support.Http;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * A gateway that holds at most two requests: the third, while two wait for a slow service, is answered 503 at once and
 * never reaches the service; the actuator is not counted; once the two are answered, requests pass again. Its open
 * connections are bounded too, each with small socket buffers (ADR 0091).
 */
@SpringBootTest(
        classes = ApiGatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sagaflow.gateway.max-in-flight=2", "sagaflow.gateway.readiness.interval=0"})
class InFlightLimitIT extends FakeServicesTestBase {

    @Autowired
    MeterRegistry meters;

    @Autowired
    WebServerApplicationContext server;

    @Test
    void aRequestPastTheLimitIsAnswered503AtOnce_andNothingOfItIsForwarded() throws Exception {
        INVENTORY.delay("/api/products/slow", Duration.ofMillis(1_500));
        List<CompletableFuture<HttpResponse<String>>> held = List.of(
                CompletableFuture.supplyAsync(() -> Http.get(port, "/api/products/slow")),
                CompletableFuture.supplyAsync(() -> Http.get(port, "/api/products/slow")));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (INVENTORY.count("GET", "/api/products/slow") < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(INVENTORY.count("GET", "/api/products/slow")).as("both held").isEqualTo(2);

        long started = System.nanoTime();
        HttpResponse<String> shed = Http.post(
                port, "/api/products", "{\"sku\":\"S-1\"}", "Idempotency-Key", "k-1", "X-Correlation-Id", "corr-1");
        long tookMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(shed.statusCode()).isEqualTo(503);
        assertThat(shed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(shed.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(shed.headers().firstValue("X-Correlation-Id")).hasValue("corr-1");
        assertThat(shed.body())
                .contains(
                        "\"type\":\"urn:sagaflow:problem:GATEWAY_BUSY\"",
                        "\"code\":\"GATEWAY_BUSY\"",
                        "\"status\":503",
                        "\"instance\":\"/api/products\"",
                        "\"limit\":2");
        assertThat(tookMillis).as("answered without waiting for a permit").isLessThan(500);
        assertThat(INVENTORY.count("POST", "/api/products"))
                .as("nothing forwarded")
                .isZero();
        assertThat(Http.get(port, "/actuator/health/liveness").statusCode())
                .as("the actuator is not counted")
                .isEqualTo(200);
        assertThat(inFlight()).isEqualTo(2.0);

        for (CompletableFuture<HttpResponse<String>> request : held) {
            assertThat(request.get().statusCode()).isEqualTo(200);
        }
        HttpResponse<String> after = Http.post(port, "/api/products", "{\"sku\":\"S-1\"}", "Idempotency-Key", "k-1");
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(INVENTORY.count("POST", "/api/products")).isEqualTo(1);
        assertThat(meters.get("sagaflow.gateway.requests.shed").counter().count())
                .isEqualTo(1.0);
        // What the alerts read (ADR 0103): the refusal among the 5xx answers, the requests within the 50-ms SLO apart.
        assertThat(Http.get(port, "/actuator/prometheus").body())
                .containsPattern("http_server_requests_seconds_count\\{[^}]*status=\"503\"")
                .containsPattern("http_server_requests_seconds_bucket\\{[^}]*le=\"0\\.05\"");
        // A permit is given back once the filter returns, which may be just after the client has its answer.
        long released = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (inFlight() > 0 && System.nanoTime() < released) {
            Thread.sleep(10);
        }
        assertThat(inFlight()).isZero();
    }

    @Test
    void eachOpenConnectionKeepsSmallSocketBuffers_andTheOpenConnectionsAreBounded() {
        Connector connector =
                ((TomcatWebServer) server.getWebServer()).getTomcat().getConnector();
        assertThat(connector.getProperty("socket.appReadBufSize")).hasToString("2048");
        assertThat(connector.getProperty("socket.appWriteBufSize")).hasToString("2048");
        assertThat(connector.getProperty("maxConnections")).hasToString("1024");
    }

    private double inFlight() {
        return meters.get("sagaflow.gateway.requests.in.flight").gauge().value();
    }
}
