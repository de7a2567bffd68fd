package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.context.support.GenericApplicationContext;

/** The warm-up's calls against a real HTTP server on the loopback address. */
class WarmUpTest {

    private final List<String> received = new CopyOnWriteArrayList<>();
    private final HttpServer server = server();

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void eachCallIsSentEveryRound_withItsBody_andItsAnswersAreCountedNotChecked() {
        WarmUp warmUp = new WarmUp(
                new GenericApplicationContext(),
                List.of(
                        new WarmUp.Call("POST", "/api/orders", "{\"lineItems\":[]}"),
                        new WarmUp.Call("GET", "/api/orders/none", null)),
                3,
                Duration.ofSeconds(5));

        Map<Integer, Integer> statuses = warmUp.run(server.getAddress().getPort());

        assertThat(statuses).containsExactly(Map.entry(400, 3), Map.entry(404, 3));
        assertThat(received)
                .containsExactly(
                        "POST /api/orders {\"lineItems\":[]}", "GET /api/orders/none ",
                        "POST /api/orders {\"lineItems\":[]}", "GET /api/orders/none ",
                        "POST /api/orders {\"lineItems\":[]}", "GET /api/orders/none ");
    }

    @Test
    void noneRunsWithoutAWebServer_andAWarmUpThatCannotConnectEndsQuietly() {
        WarmUp warmUp = new WarmUp(
                new GenericApplicationContext(),
                List.of(new WarmUp.Call("GET", "/api/orders/none", null)),
                3,
                Duration.ofSeconds(1));

        warmUp.run(new DefaultApplicationArguments());
        assertThat(received)
                .as("no web server in the context: nothing sent, the server listening")
                .isEmpty();

        int closed = server.getAddress().getPort();
        server.stop(0);
        assertThat(warmUp.run(closed)).isEmpty();
    }

    private HttpServer server() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            http.createContext("/", exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    String path = exchange.getRequestURI().getPath();
                    received.add(exchange.getRequestMethod() + " " + path + " " + body);
                    exchange.sendResponseHeaders(path.equals("/api/orders") ? 400 : 404, -1);
                }
            });
            http.start();
            return http;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
