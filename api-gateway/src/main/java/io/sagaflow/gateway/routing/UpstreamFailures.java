package io.sagaflow.gateway.routing;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.sagaflow.gateway.problem.Problem;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpServerErrorException;

/**
 * What a failed call to a service means for the client, as a {@link Problem}:
 *
 * <ul>
 *   <li>503 {@code SERVICE_UNAVAILABLE} with {@code Retry-After} when the service's circuit breaker is open (until it
 *       lets a trial call through), when no replica could be reached or none is configured (one second);
 *   <li>504 {@code GATEWAY_TIMEOUT} when the service did not answer within the route's time limit;
 *   <li>502 {@code BAD_GATEWAY} for any other transport failure (a broken connection, a malformed answer).
 * </ul>
 *
 * Answers the services give, 5xx included, are passed through unchanged and are not failures here.
 */
public final class UpstreamFailures {

    static final Duration RETRY_UNREACHABLE = Duration.ofSeconds(1);

    private UpstreamFailures() {}

    /**
     * The problem for {@code failure} of a call to {@code service}, or {@code null} if it is no upstream failure.
     *
     * @param openFor how long the named circuit breaker stays open from now
     */
    public static Problem classify(Throwable failure, String service, Function<String, Duration> openFor) {
        String name = service == null ? "upstream" : service;
        CallNotPermittedException open = find(failure, CallNotPermittedException.class);
        if (open != null) {
            return unavailable(name, "The " + name + " service is failing; the gateway stopped calling it for a while")
                    .retryAfter(openFor.apply(open.getCausingCircuitBreakerName()));
        }
        if (isTimeout(failure)) {
            return Problem.of(
                            HttpStatus.GATEWAY_TIMEOUT,
                            "GATEWAY_TIMEOUT",
                            "The " + name + " service did not answer in time")
                    .with("service", name);
        }
        if (isUnreachable(failure)) {
            return unavailable(name, "The " + name + " service cannot be reached")
                    .retryAfter(RETRY_UNREACHABLE);
        }
        if (find(failure, IOException.class) != null) {
            return Problem.of(HttpStatus.BAD_GATEWAY, "BAD_GATEWAY", "The call to the " + name + " service failed")
                    .with("service", name);
        }
        return null;
    }

    /** Whether the call failed in transport (no answer at all), so a read may be sent again. */
    static boolean isTransportFailure(Throwable failure) {
        return find(failure, IOException.class) != null || isUnreachable(failure);
    }

    private static Problem unavailable(String service, String detail) {
        return Problem.of(HttpStatus.SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", detail)
                .with("service", service);
    }

    private static boolean isTimeout(Throwable failure) {
        if (find(failure, HttpConnectTimeoutException.class) != null) {
            return false;
        }
        return find(failure, TimeoutException.class) != null
                || find(failure, HttpTimeoutException.class) != null
                || find(failure, SocketTimeoutException.class) != null;
    }

    /** Whether the call found no replica to connect to, so nothing was sent. */
    static boolean isUnreachable(Throwable failure) {
        if (find(failure, ConnectException.class) != null
                || find(failure, HttpConnectTimeoutException.class) != null
                || find(failure, NoRouteToHostException.class) != null
                || find(failure, UnknownHostException.class) != null) {
            return true;
        }
        // The load balancer found no replica of the service.
        HttpServerErrorException noInstance = find(failure, HttpServerErrorException.class);
        return noInstance != null && noInstance.getStatusCode().value() == 503;
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 16; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
