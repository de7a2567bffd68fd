package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** The retry loops of {@code RetryReads}, {@code RetryKeyedWrites} and {@code RetryUnsentWrites}, by attempt. */
class SagaflowFilterFunctionsTest {

    private static final RuntimeException REFUSED =
            new ResourceAccessException("refused", new ConnectException("Connection refused"));
    private static final RuntimeException BROKEN =
            new ResourceAccessException("broken", new IOException("HTTP/1.1 header parser received no bytes"));

    private final ServerRequest request =
            ServerRequest.create(new MockHttpServletRequest("POST", "/api/orders"), List.of());

    @Test
    void anAttemptThatFailsInTransportIsMadeAgain_upToTheRetries() throws Exception {
        Attempts attempts = new Attempts(REFUSED, REFUSED, ServerResponse.ok().build());
        assertThat(SagaflowFilterFunctions.retrying(request, 2, Set.of(502), attempts)
                        .statusCode())
                .isEqualTo(HttpStatus.OK);

        Attempts failing =
                new Attempts(REFUSED, REFUSED, REFUSED, ServerResponse.ok().build());
        assertThatThrownBy(() -> SagaflowFilterFunctions.retrying(request, 2, Set.of(502), failing))
                .isSameAs(REFUSED);
        assertThat(failing.made).isEqualTo(3);
    }

    @Test
    void whenALaterAttemptFindsNoReplica_theFailureOfOneThatReachedAReplicaIsPassedOn() {
        // The first attempt may have been carried out: "cannot be reached" (503, nothing done) would be untrue.
        Attempts attempts = new Attempts(BROKEN, REFUSED);
        assertThatThrownBy(() -> SagaflowFilterFunctions.retrying(request, 1, Set.of(502), attempts))
                .isSameAs(BROKEN);
    }

    @Test
    void anAnswerWithAStatusToRetryIsMadeAgain_theLastIsPassedOn_otherFailuresAreNot() throws Exception {
        Attempts answered = new Attempts(
                ServerResponse.status(502).build(), ServerResponse.status(502).build());
        assertThat(SagaflowFilterFunctions.retrying(request, 1, Set.of(502), answered)
                        .statusCode()
                        .value())
                .isEqualTo(502);
        assertThat(answered.made).isEqualTo(2);

        IllegalStateException bug = new IllegalStateException("not a transport failure");
        Attempts failing = new Attempts(bug, ServerResponse.ok().build());
        assertThatThrownBy(() -> SagaflowFilterFunctions.retrying(request, 2, Set.of(502), failing))
                .isSameAs(bug);
        assertThat(failing.made).isEqualTo(1);
    }

    @Test
    void aWriteThatFoundNoReplicaAndWhoseBodyNobodyReadIsMadeAgain() throws Exception {
        ServerRequest write = throughBodyReadFilter();
        Attempts attempts = new Attempts(REFUSED, REFUSED, ServerResponse.ok().build());

        assertThat(SagaflowFilterFunctions.retryingUnsent(write, 2, attempts).statusCode())
                .isEqualTo(HttpStatus.OK);
        assertThat(attempts.made).isEqualTo(3);

        Attempts failing = new Attempts(REFUSED, REFUSED);
        assertThatThrownBy(() -> SagaflowFilterFunctions.retryingUnsent(throughBodyReadFilter(), 1, failing))
                .isSameAs(REFUSED);
        assertThat(failing.made).isEqualTo(2);
    }

    @Test
    void aWriteThatMayHaveLeftTheGatewayIsNotMadeAgain() throws Exception {
        // Its body was read: some of it may have reached the replica before the failure.
        ServerRequest read = throughBodyReadFilter();
        Attempts reading = new Attempts(REFUSED, ServerResponse.ok().build()) {
            @Override
            public ServerResponse send() {
                try {
                    read.servletRequest().getInputStream().read();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return super.send();
            }
        };
        assertThatThrownBy(() -> SagaflowFilterFunctions.retryingUnsent(read, 2, reading))
                .isSameAs(REFUSED);
        assertThat(reading.made).isEqualTo(1);

        // It reached a replica; or it answered, whatever the status; or it did not pass the filter (not known).
        Attempts broken = new Attempts(BROKEN, ServerResponse.ok().build());
        assertThatThrownBy(() -> SagaflowFilterFunctions.retryingUnsent(throughBodyReadFilter(), 2, broken))
                .isSameAs(BROKEN);
        Attempts answered = new Attempts(
                ServerResponse.status(502).build(), ServerResponse.ok().build());
        assertThat(SagaflowFilterFunctions.retryingUnsent(throughBodyReadFilter(), 2, answered)
                        .statusCode()
                        .value())
                .isEqualTo(502);
        Attempts unknown = new Attempts(REFUSED, ServerResponse.ok().build());
        assertThatThrownBy(() -> SagaflowFilterFunctions.retryingUnsent(request, 2, unknown))
                .isSameAs(REFUSED);
        assertThat(broken.made + answered.made + unknown.made).isEqualTo(3);
    }

    @Test
    void eachAttemptOfAKeyedCreateReadsAWholeBodyOfItsOwn() throws Exception {
        String body = "{\"customerId\":\"c-1\",\"shippingAddress\":\"1 Main St\"}";
        MockHttpServletRequest servlet = new MockHttpServletRequest("POST", "/api/orders");
        servlet.setContent(body.getBytes(StandardCharsets.UTF_8));
        servlet.addHeader("Idempotency-Key", "k-1");
        servlet.addHeader("Content-Length", body.length());
        List<InputStream> bodies = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        // The first attempt fails before the HTTP client's writer read its body; that writer reads it late, while the
        // second attempt is under way, as a writer thread the host scheduled late would.
        HandlerFunction<ServerResponse> proxy = attempt -> {
            bodies.add(attempt.servletRequest().getInputStream());
            if (bodies.size() == 1) {
                throw BROKEN;
            }
            sent.add(new String(bodies.getFirst().readAllBytes(), StandardCharsets.UTF_8));
            sent.add(new String(bodies.getLast().readAllBytes(), StandardCharsets.UTF_8));
            return ServerResponse.ok().build();
        };

        ServerResponse answer =
                SagaflowFilterFunctions.retryKeyedWrites(2).filter(ServerRequest.create(servlet, List.of()), proxy);

        assertThat(answer.statusCode()).isEqualTo(HttpStatus.OK);
        assertThat(sent).containsExactly(body, body);
    }

    @Test
    void aCreateWithoutAKeyCarriesOneOfTheGatewaysOnEveryAttempt_aCreateWithOneKeepsIt() throws Exception {
        List<String> keys = new ArrayList<>();
        HandlerFunction<ServerResponse> proxy = attempt -> {
            keys.add(String.join(",", attempt.headers().header("Idempotency-Key")));
            if (keys.size() % 2 == 1) {
                throw BROKEN;
            }
            return ServerResponse.ok().build();
        };
        SagaflowFilterFunctions.retryKeyedWrites(2).filter(create(null), proxy);
        SagaflowFilterFunctions.retryKeyedWrites(2).filter(create("k-1"), proxy);

        assertThat(keys).hasSize(4);
        assertThat(keys.get(0)).matches("gateway-[0-9a-f-]{36}").isEqualTo(keys.get(1));
        assertThat(keys.subList(2, 4)).containsOnly("k-1");
    }

    private static ServerRequest create(String key) {
        MockHttpServletRequest servlet = new MockHttpServletRequest("POST", "/api/orders");
        servlet.setContent("{}".getBytes(StandardCharsets.UTF_8));
        servlet.addHeader("Content-Length", 2);
        if (key != null) {
            servlet.addHeader("Idempotency-Key", key);
        }
        return ServerRequest.create(servlet, List.of());
    }

    /** A write with a body, as the routes see it after {@link BodyReadFilter}. */
    private static ServerRequest throughBodyReadFilter() throws Exception {
        MockHttpServletRequest servlet = new MockHttpServletRequest("POST", "/api/orders/o-1/cancel");
        servlet.setContent("{\"reason\":\"changed my mind\"}".getBytes(StandardCharsets.UTF_8));
        AtomicReference<ServletRequest> passed = new AtomicReference<>();
        new BodyReadFilter().doFilter(servlet, new MockHttpServletResponse(), (req, res) -> passed.set(req));
        return ServerRequest.create((HttpServletRequest) passed.get(), List.of());
    }

    /** Attempts that fail or answer in the given order. */
    private static class Attempts implements SagaflowFilterFunctions.Attempt {

        private final Deque<Object> outcomes;
        int made;

        Attempts(Object... outcomes) {
            this.outcomes = new ArrayDeque<>(List.of(outcomes));
        }

        @Override
        public ServerResponse send() {
            made++;
            Object outcome = outcomes.removeFirst();
            if (outcome instanceof RuntimeException failure) {
                throw failure;
            }
            return (ServerResponse) outcome;
        }
    }
}
