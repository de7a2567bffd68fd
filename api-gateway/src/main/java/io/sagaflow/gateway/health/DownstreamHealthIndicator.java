package io.sagaflow.gateway.health;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * One downstream service's health as the gateway sees it: every replica the discovery client knows is asked for its
 * {@code /actuator/health}, all at once and each within the timeout. The service is UP while at least one replica is
 * UP (the gateway can route to it); the details list each replica's status.
 */
public final class DownstreamHealthIndicator implements HealthIndicator {

    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");

    private final String service;
    private final DiscoveryClient discovery;
    private final HttpClient http;
    private final Duration timeout;

    public DownstreamHealthIndicator(String service, DiscoveryClient discovery, HttpClient http, Duration timeout) {
        this.service = service;
        this.discovery = discovery;
        this.http = http;
        this.timeout = timeout;
    }

    @Override
    public Health health() {
        List<ServiceInstance> replicas = discovery.getInstances(service);
        if (replicas.isEmpty()) {
            return Health.down().withDetail("replicas", "none configured").build();
        }
        Map<String, Future<String>> pending = new LinkedHashMap<>();
        try (var calls = Executors.newVirtualThreadPerTaskExecutor()) {
            for (ServiceInstance replica : replicas) {
                pending.put(replica.getUri().toString(), calls.submit(() -> statusOf(replica.getUri())));
            }
        }
        Map<String, String> statuses = new LinkedHashMap<>();
        pending.forEach((replica, status) -> statuses.put(replica, status.resultNow()));
        boolean anyUp = statuses.containsValue(Status.UP.getCode());
        return Health.status(anyUp ? Status.UP : Status.DOWN)
                .withDetail("replicas", statuses)
                .build();
    }

    private String statusOf(URI replica) {
        try {
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(replica.resolve("/actuator/health"))
                            .timeout(timeout)
                            .header("Accept", "application/json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            var status = STATUS.matcher(answer.body());
            return status.find() ? status.group(1) : "HTTP_" + answer.statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Status.UNKNOWN.getCode();
        } catch (Exception e) {
            return Status.DOWN.getCode();
        }
    }
}
