package io.sagaflow.framework.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the requests a service works on at once (ADR 0023). With virtual threads nothing else does: past its
 * capacity a service would accept ever more requests, each parked with its buffers (waiting for a database
 * connection, say) and still running after its client gave up, until the heap runs out. Past {@code limit} requests
 * in flight, a new one is answered at once with a 503 problem ({@code IN_FLIGHT_LIMIT}, {@code Retry-After}), having
 * changed nothing. The actuator's endpoints are never refused, so health checks and metrics stay answerable.
 *
 * <p>A request that parks to wait for something, a long poll, is not work in flight: it gives its permit back first
 * ({@link #releaseEarly}) and whoever parks it bounds the parked requests itself.
 *
 * <p>When Tomcat's handlers are bounded too ({@link BoundedHandlers}, ADR 0105), the requests waiting for a handler
 * count: a request is refused when those waiting behind it would take every permit left, so past {@code limit}
 * requests at the service, running or waiting, a new one is still answered 503 rather than queued.
 */
public class InFlightLimitFilter extends OncePerRequestFilter {

    private static final String PERMIT = InFlightLimitFilter.class.getName() + ".permit";

    private final int limit;
    private final Semaphore permits;
    private final Counter refused;
    private final IntSupplier waiting;

    /** @param limit requests in flight at most; 0 or less for no limit */
    public InFlightLimitFilter(int limit, MeterRegistry meters) {
        this(limit, meters, () -> 0);
    }

    /**
     * @param limit requests in flight and waiting for a handler at most; 0 or less for no limit
     * @param waiting the requests waiting for a handler now
     */
    public InFlightLimitFilter(int limit, MeterRegistry meters, IntSupplier waiting) {
        this.limit = limit;
        this.waiting = waiting;
        this.permits = new Semaphore(Math.max(limit, 0));
        this.refused = Counter.builder("sagaflow.http.in-flight.refused")
                .description("Requests refused because too many were in flight")
                .register(meters);
        Gauge.builder("sagaflow.http.in-flight", this, filter -> filter.inFlight())
                .description("Requests in flight, as counted by the in-flight limit")
                .register(meters);
    }

    /** Requests holding a permit now. */
    public int inFlight() {
        return limit <= 0 ? 0 : limit - permits.availablePermits();
    }

    /** Gives {@code request}'s permit back before it parks; harmless when it has none or gave it back already. */
    public static void releaseEarly(HttpServletRequest request) {
        if (request.getAttribute(PERMIT) instanceof Permit permit) {
            permit.release();
        }
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return limit <= 0 || request.getRequestURI().startsWith("/actuator/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (waiting.getAsInt() >= permits.availablePermits() || !permits.tryAcquire()) {
            refused.increment();
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            response.setHeader(HttpHeaders.RETRY_AFTER, "1");
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.getOutputStream()
                    .write(("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                                    + "\"detail\":\"The service is working on " + limit + " requests already;"
                                    + " nothing was changed, retry after the time in Retry-After\","
                                    + "\"code\":\"IN_FLIGHT_LIMIT\"}")
                            .getBytes(StandardCharsets.UTF_8));
            return;
        }
        Permit permit = new Permit(permits);
        request.setAttribute(PERMIT, permit);
        try {
            chain.doFilter(request, response);
        } finally {
            permit.release();
        }
    }

    /** One request's permit, given back once (true once given back; one object per request). */
    private static final class Permit extends AtomicBoolean {

        private final transient Semaphore permits;

        Permit(Semaphore permits) {
            this.permits = permits;
        }

        void release() {
            if (compareAndSet(false, true)) {
                permits.release();
            }
        }
    }
}
