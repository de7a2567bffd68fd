package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** The retry loop of {@code RetryReads} and {@code RetryKeyedWrites}, attempt by attempt. */
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

    /** Attempts that fail or answer in the given order. */
    private static final class Attempts implements SagaflowFilterFunctions.Attempt {

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
