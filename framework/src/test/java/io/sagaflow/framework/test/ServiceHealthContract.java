package io.sagaflow.framework.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

/**
 * What every service promises once started: healthy, and ready only with its PostgreSQL and Hazelcast. A service's
 * test extends it: {@code @SagaflowIntegrationTest class OrderServiceApplicationIT extends ServiceHealthContract {}}.
 */
public abstract class ServiceHealthContract {

    @Value("${local.server.port}")
    private int port;

    @Test
    void startsOnTheFrameworkAndReportsHealthy() throws Exception {
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void isReadyOnlyWithItsDatabaseAndHazelcast() throws Exception {
        HttpResponse<String> readiness = get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"db\"").contains("\"hazelcast\"");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
