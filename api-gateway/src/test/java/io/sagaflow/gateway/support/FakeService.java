package io.sagaflow.gateway.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP backend that behaves like one replica of a Sagaflow service: it answers every path with JSON naming
 * itself, echoes {@code X-Correlation-Id} as the services do, serves {@code /actuator/health} and
 * {@code /v3/api-docs}, records what it received, and can be made slow, failing, stopped and started again on the same
 * port. The gateways' readiness probes ({@value #READINESS}) are counted apart, not recorded: every gateway context a
 * test run keeps sends them, whenever it likes.
 */
public final class FakeService {

    /** One request as the service received it. */
    public record Received(String method, String path, String query, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    /** The path of the readiness probes. */
    public static final String READINESS = "/actuator/health/readiness";

    private final String name;
    private final int port;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger probes = new AtomicInteger();
    private final Map<String, Duration> delays = new ConcurrentHashMap<>();
    private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
    private final Set<String> dropped = ConcurrentHashMap.newKeySet();
    private final Set<String> truncated = ConcurrentHashMap.newKeySet();
    private volatile HttpServer server;

    private FakeService(String name, int port) {
        this.name = name;
        this.port = port;
    }

    /** Starts a replica of {@code name} on a free port of 127.0.0.1. */
    public static FakeService start(String name) {
        HttpServer bound = bind(0);
        return new FakeService(name, bound.getAddress().getPort()).adopt(bound);
    }

    private FakeService adopt(HttpServer running) {
        this.server = running;
        running.createContext("/", this::handle);
        running.start();
        return this;
    }

    public String name() {
        return name;
    }

    public String uri() {
        return "http://127.0.0.1:" + port;
    }

    public List<Received> received() {
        return received;
    }

    /** The readiness probes it received since it was started or reset. */
    public int probes() {
        return probes.get();
    }

    public long count(String method, String path) {
        return received.stream()
                .filter(r -> r.method().equals(method) && r.path().equals(path))
                .count();
    }

    /** Answers {@code path} only after {@code delay}. */
    public void delay(String path, Duration delay) {
        delays.put(path, delay);
    }

    /** Answers {@code path} with {@code status}. */
    public void answer(String path, int status) {
        statuses.put(path, status);
    }

    /**
     * Reads and records every request to {@code path}, then closes the connection without an answer: a replica that
     * stopped while it held the request, which it may or may not have carried out.
     */
    public void drop(String path) {
        dropped.add(path);
    }

    /**
     * Answers every request to {@code path} with its headers and half its body, in chunks as the services answer,
     * then closes the connection without the last chunk: a replica that stopped while it answered.
     */
    public void truncate(String path) {
        truncated.add(path);
    }

    /** Closes the port: connections are refused until {@link #restart()}. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    /** Listens on the same port again. */
    public synchronized void restart() {
        if (server == null) {
            adopt(bind(port));
        }
    }

    public synchronized void reset() {
        restart();
        received.clear();
        probes.set(0);
        delays.clear();
        statuses.clear();
        dropped.clear();
        truncated.clear();
    }

    /** Reads the request and records it, or counts it if it is a readiness probe. */
    private void record(HttpExchange exchange) throws IOException {
        if (exchange.getRequestURI().getPath().equals(READINESS)) {
            exchange.getRequestBody().readAllBytes();
            probes.incrementAndGet();
            return;
        }
        received.add(new Received(
                exchange.getRequestMethod(),
                exchange.getRequestURI().getPath(),
                exchange.getRequestURI().getRawQuery(),
                Map.copyOf(exchange.getRequestHeaders()),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
    }

    private void answerHalf(HttpExchange exchange) throws IOException {
        record(exchange);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        exchange.getResponseBody().write("{\"service\":\"".getBytes(StandardCharsets.UTF_8));
        exchange.getResponseBody().flush();
        // Not closing the exchange: the server then drops the connection, and the answer has no last chunk.
        throw new IOException(name + " stopped in the middle of its answer");
    }

    private static HttpServer bind(int onPort) {
        try {
            HttpServer bound = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 64);
            bound.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            return bound;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        if (truncated.contains(exchange.getRequestURI().getPath())) {
            answerHalf(exchange);
            return;
        }
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            record(exchange);
            if (dropped.contains(path)) {
                return;
            }
            Duration delay = delays.get(path);
            if (delay != null) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            String prefer = exchange.getRequestHeaders().getFirst("Prefer");
            if (prefer != null && prefer.startsWith("wait=")) {
                // as a service's read that waited for a change says it did (ADR 0025)
                exchange.getResponseHeaders().add("Preference-Applied", prefer);
            }
            String correlationId = exchange.getRequestHeaders().getFirst("X-Correlation-Id");
            if (correlationId != null) {
                exchange.getResponseHeaders().add("X-Correlation-Id", correlationId);
            }
            int status = statuses.getOrDefault(path, 200);
            String json = switch (path) {
                case "/actuator/health" -> "{\"status\":\"UP\"}";
                case "/v3/api-docs" ->
                    "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"" + name + "\"},\"servers\":[{\"url\":\"http://"
                            + exchange.getRequestHeaders().getFirst("Host") + "\"}]}";
                default ->
                    "{\"service\":\"" + name + "\",\"method\":\"" + exchange.getRequestMethod() + "\",\"path\":\""
                            + path + "\"}";
            };
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }
}
