package io.sagaflow.framework.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

/**
 * A replica's requests to itself before it says it is ready (ADR 0078): each call, {@code rounds} times, to its own
 * port. A new JVM does one-time work on its first requests (class loading, annotation metadata, Jackson's and Bean
 * Validation's metadata of each request type); a request that meets it waits, and so do those queued behind it. Spring
 * Boot turns the readiness state to accepting traffic only once the application runners are done, so neither the
 * gateway's probes nor Kubernetes send this replica a request before the calls have run.
 *
 * <p>The calls must change nothing: a request the API refuses (a body that fails validation) or a read of something
 * that does not exist. Their answers are not checked; a call that fails is logged and the warm-up ends, never the
 * start.
 */
public final class WarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

    /** One request: its method, path and, for a method with a body, a JSON body. */
    public record Call(String method, String path, String body) {}

    private final ApplicationContext context;
    private final List<Call> calls;
    private final int rounds;
    private final Duration timeout;

    public WarmUp(ApplicationContext context, List<Call> calls, int rounds, Duration timeout) {
        this.context = context;
        this.calls = List.copyOf(calls);
        this.rounds = rounds;
        this.timeout = timeout;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (calls.isEmpty() || rounds <= 0 || !(context instanceof WebServerApplicationContext web)) {
            return;
        }
        run(web.getWebServer().getPort());
    }

    /**
     * Sends the calls to {@code port} on the loopback address, {@code rounds} times; returns how many were answered, by
     * status.
     */
    public Map<Integer, Integer> run(int port) {
        Map<Integer, Integer> statuses = new TreeMap<>();
        if (port <= 0) {
            return statuses;
        }
        long started = System.nanoTime();
        try (HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build()) {
            for (int round = 0; round < rounds; round++) {
                for (Call call : calls) {
                    statuses.merge(send(http, port, call), 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            log.warn("The warm-up's requests to port {} failed; the replica starts without them", port, e);
            return statuses;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return statuses;
        }
        log.info(
                "Warmed the request path up: {} requests to itself in {} ms, answered {}",
                statuses.values().stream().mapToInt(Integer::intValue).sum(),
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                statuses);
        return statuses;
    }

    private int send(HttpClient http, int port, Call call) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher body = call.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(call.body());
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + call.path()))
                .timeout(timeout)
                .method(call.method(), body);
        if (call.body() != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
