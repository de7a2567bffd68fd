package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.sagaflow.gateway.problem.Problem;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.server.ResponseStatusException;

class UpstreamFailuresTest {

    private static final Function<String, Duration> OPEN_7_SECONDS = name -> Duration.ofMillis(6_200);

    @Test
    void anOpenBreakerIsA503_untilItLetsATrialCallThrough() {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("order");
        breaker.transitionToOpenState();
        var open = new ResponseStatusException(
                HttpStatus.SERVICE_UNAVAILABLE,
                "open",
                CallNotPermittedException.createCallNotPermittedException(breaker));

        Problem problem = UpstreamFailures.classify(open, "order", OPEN_7_SECONDS);

        assertThat(problem.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(problem.code()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(problem.properties()).containsEntry("service", "order");
        assertThat(problem.retryAfterSeconds()).isEqualTo(7);
    }

    @Test
    void theTimeLimitOrAReadTimeoutIsA504() {
        var timeLimit = new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, "late", new TimeoutException());
        var readTimeout = new ResourceAccessException("I/O error", new HttpTimeoutException("request timed out"));

        for (Throwable late : new Throwable[] {timeLimit, readTimeout}) {
            Problem problem = UpstreamFailures.classify(late, "inventory", OPEN_7_SECONDS);
            assertThat(problem.status()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
            assertThat(problem.code()).isEqualTo("GATEWAY_TIMEOUT");
            assertThat(problem.retryAfter()).isNull();
        }
    }

    @Test
    void anUnreachableServiceIsA503_withRetryAfter() {
        var refused = new ResponseStatusException(
                HttpStatus.INTERNAL_SERVER_ERROR, "x", new ResourceAccessException("I/O", new ConnectException()));
        var connectTimeout = new ResourceAccessException("I/O", new HttpConnectTimeoutException("connect timed out"));
        var noReplica = HttpServerErrorException.create(
                HttpStatus.SERVICE_UNAVAILABLE, "Unable to find instance for payment", null, null, null);

        for (Throwable unreachable : new Throwable[] {refused, connectTimeout, noReplica}) {
            Problem problem = UpstreamFailures.classify(unreachable, "payment", OPEN_7_SECONDS);
            assertThat(problem.status()).as(unreachable.toString()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(problem.retryAfterSeconds()).isEqualTo(1);
        }
        assertThat(UpstreamFailures.isTransportFailure(refused)).isTrue();
    }

    @Test
    void anyOtherTransportFailureIsA502() {
        var reset = new ResourceAccessException("I/O", new IOException("Connection reset"));

        Problem problem = UpstreamFailures.classify(reset, "account", OPEN_7_SECONDS);

        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(problem.code()).isEqualTo("BAD_GATEWAY");
    }

    @Test
    void aBugIsNoUpstreamFailure() {
        assertThat(UpstreamFailures.classify(new IllegalStateException("bug"), "order", OPEN_7_SECONDS))
                .isNull();
        assertThat(UpstreamFailures.isTransportFailure(new IllegalStateException("bug")))
                .isFalse();
    }
}
