package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.autoconfigure.TomcatVirtualThreadsWebServerFactoryCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;

/**
 * A real Tomcat on virtual threads, customized as Spring Boot does it, with one handler at most and two requests in
 * flight: a second request waits for the first instead of running beside it, a request that parks lets the next one
 * run, and those waiting count toward the in-flight limit.
 */
class HandlerLimitIT {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final HttpClient http = HttpClient.newHttpClient();
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch held = new CountDownLatch(1);
    private TomcatWebServer server;

    @BeforeEach
    void startTomcat() {
        TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory(0);
        // Registered in the order Spring Boot applies them: virtual threads (order 1) first, the limit last.
        new TomcatVirtualThreadsWebServerFactoryCustomizer().customize(factory);
        HandlerLimit limit = new HandlerLimit(1, meters);
        limit.customize(factory);
        server = (TomcatWebServer) factory.getWebServer(context -> {
            context.addFilter("in-flight", new InFlightLimitFilter(2, meters, limit::queued))
                    .addMappingForUrlPatterns(null, false, "/*");
            context.addServlet("held", new Held(false)).addMapping("/held");
            context.addServlet("parked", new Held(true)).addMapping("/parked");
            context.addServlet("quick", new Quick()).addMapping("/quick");
        });
        server.start();
    }

    @AfterEach
    void stopTomcat() {
        holding.countDown();
        server.stop();
    }

    @Test
    void tomcatsVirtualThreadExecutorIsTheOneBounded() {
        assertThat(server.getTomcat().getConnector().getProtocolHandler().getExecutor())
                .isInstanceOf(BoundedHandlers.class)
                .asString()
                .startsWith("BoundedHandlers[limit=1,")
                .contains("VirtualThreadExecutor");
    }

    @Test
    void pastTheLimitARequestWaitsForARunningOne_andIsThenAnswered() throws Exception {
        CompletableFuture<HttpResponse<String>> first = send("/held");
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<HttpResponse<String>> second = send("/quick");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> meters.get("sagaflow.http.handlers.queued").gauge().value() == 1);
        assertThat(second).isNotDone();

        holding.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(second.get(10, TimeUnit.SECONDS).body()).isEqualTo("quick");
    }

    @Test
    void requestsWaitingForAHandlerCountTowardTheInFlightLimit() throws Exception {
        CompletableFuture<HttpResponse<String>> first = send("/held");
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            waiting.add(send("/quick"));
            int queued = i;
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            meters.get("sagaflow.http.handlers.queued").gauge().value() == queued);
        }

        holding.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = waiting.get(0).get(10, TimeUnit.SECONDS);
        assertThat(refused.statusCode())
                .as("two waiting behind it would take both permits of two")
                .isEqualTo(503);
        assertThat(refused.body()).contains("\"code\":\"IN_FLIGHT_LIMIT\"");
        assertThat(waiting.get(1).get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(waiting.get(2).get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void aRequestThatParksLetsTheNextOneRun() throws Exception {
        CompletableFuture<HttpResponse<String>> parked = send("/parked");
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(send("/quick").get(10, TimeUnit.SECONDS).body()).isEqualTo("quick");

        holding.countDown();
        assertThat(parked.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
    }

    private CompletableFuture<HttpResponse<String>> send(String path) {
        return http.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Holds its request until the test lets it go; parked, it gives its handler slot back first, as a long poll. */
    private final class Held extends HttpServlet {

        private final boolean parks;

        Held(boolean parks) {
            this.parks = parks;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (parks) {
                BoundedHandlers.releaseEarly();
            }
            held.countDown();
            try {
                holding.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            response.getWriter().write("released");
        }
    }

    private static final class Quick extends HttpServlet {

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().write("quick");
        }
    }
}
