package io.sagaflow.framework.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.context.support.RequestHandledEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every service promises once started: healthy, and ready only with its PostgreSQL and Hazelcast, and a request
 * that costs no more bookkeeping than the metrics the sweeps read. A service's test extends it:
 * {@code @SagaflowIntegrationTest class OrderServiceApplicationIT extends ServiceHealthContract {}}.
 */
public abstract class ServiceHealthContract {

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ConfigurableApplicationContext context;

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

    /**
     * Each request is timed ({@code http.server.requests}, which the sweeps read), but it starts no long-task timer,
     * looked up by its tags on every request, and publishes no application event nobody listens to (the
     * framework's defaults): requests in flight are {@code sagaflow.http.in-flight}. Those within the 50-ms SLO are
     * counted in a bucket of their own, for the alert on the share slower than it.
     */
    @Test
    void timesEachRequestWithoutALongTaskTimerOrAnEvent() throws Exception {
        List<RequestHandledEvent> events = new CopyOnWriteArrayList<>();
        context.addApplicationListener((ApplicationListener<RequestHandledEvent>) events::add);

        get("/actuator/health");
        String metrics = get("/actuator/prometheus").body();

        assertThat(metrics)
                .contains("http_server_requests_seconds_count{")
                .containsPattern("http_server_requests_seconds_bucket\\{[^}]*le=\"0\\.05\"")
                .contains("sagaflow_http_in_flight ")
                .doesNotContain("http_server_requests_active");
        assertThat(events).isEmpty();
    }

    /**
     * The OpenAPI document is valid where tools that read it look first: every parameter has a schema (a header
     * parameter without one stopped Schemathesis from testing the operation at all).
     */
    @Test
    void describesEveryParameterWithASchema() throws Exception {
        HttpResponse<String> docs = get("/v3/api-docs");
        assertThat(docs.statusCode()).isEqualTo(200);
        List<String> withoutSchema = new ArrayList<>();
        JsonNode paths = JsonMapper.builder().build().readTree(docs.body()).path("paths");
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                for (JsonNode parameter : paths.path(path).path(method).path("parameters")) {
                    if (!parameter.has("schema") && !parameter.has("content")) {
                        withoutSchema.add(method + " " + path + " "
                                + parameter.path("name").asString());
                    }
                }
            }
        }
        assertThat(withoutSchema).isEmpty();
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
