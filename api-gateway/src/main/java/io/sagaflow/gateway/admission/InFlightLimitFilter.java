package io.sagaflow.gateway.admission;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.gateway.problem.Problem;
import io.sagaflow.gateway.problem.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Holds at most {@code limit} requests under {@code /api} (the proxied routes) at once; one more is answered 503
 * {@code GATEWAY_BUSY} with {@code Retry-After} at once, before anything of it is forwarded, so a client may send it
 * again, keyed or not. Without a bound, every request a stalled service leaves waiting keeps its buffers until the
 * route's time limit: at a few hundred a second that was more than the gateway's heap, which then failed for good
 * (ADR 0091). The actuator's endpoints are not counted, so probes still answer while the gateway sheds.
 */
public class InFlightLimitFilter extends OncePerRequestFilter {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final Semaphore permits;
    private final int limit;
    private final ProblemWriter problems;
    private final Counter shed;

    /**
     * @param limit the requests held at once, at least 1
     */
    public InFlightLimitFilter(int limit, ProblemWriter problems, MeterRegistry meters) {
        if (limit < 1) {
            throw new IllegalArgumentException("the in-flight limit must be at least 1: " + limit);
        }
        this.limit = limit;
        this.permits = new Semaphore(limit);
        this.problems = problems;
        this.shed = Counter.builder("sagaflow.gateway.requests.shed")
                .description("Requests answered 503 GATEWAY_BUSY because the gateway held its limit already")
                .register(meters);
        Gauge.builder("sagaflow.gateway.requests.in.flight", this, InFlightLimitFilter::inFlight)
                .description("Proxied requests the gateway holds now")
                .register(meters);
    }

    /** The requests held now. */
    public int inFlight() {
        return limit - permits.availablePermits();
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!permits.tryAcquire()) {
            shed.increment();
            problems.write(
                    request,
                    response,
                    Problem.of(
                                    HttpStatus.SERVICE_UNAVAILABLE,
                                    "GATEWAY_BUSY",
                                    "The gateway holds as many requests as it can; nothing was forwarded, retry after"
                                            + " the time in Retry-After")
                            .with("limit", limit)
                            .retryAfter(RETRY_AFTER));
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            permits.release();
        }
    }
}
