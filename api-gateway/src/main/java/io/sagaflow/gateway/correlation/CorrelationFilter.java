package io.sagaflow.gateway.correlation;

import io.sagaflow.gateway.headers.RewrittenRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * First filter of every request: takes the caller's {@code X-Correlation-Id} (if it matches the services' rule,
 * {@code [A-Za-z0-9._:-]{1,128}}) or creates one, and the caller's {@code traceparent} or a new trace; the request
 * the services receive carries both (and the caller's {@code tracestate} when its {@code traceparent} was valid), and
 * so does every response, including the gateway's own problems. A service's echo of either header replaces nothing:
 * the response keeps one value.
 */
public class CorrelationFilter extends OncePerRequestFilter {

    public static final String CORRELATION_ID = "X-Correlation-Id";

    private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getHeader(CORRELATION_ID);
        String correlationId = given != null && ACCEPTABLE.matcher(given).matches()
                ? given
                : UUID.randomUUID().toString();
        var caller = TraceContext.parse(request.getHeader(TraceContext.TRACEPARENT));
        TraceContext hop = caller.map(trace -> trace.nextHop(ThreadLocalRandom.current()))
                .orElseGet(() -> TraceContext.start(ThreadLocalRandom.current()));

        Map<String, String> outgoing = new LinkedHashMap<>();
        outgoing.put(CORRELATION_ID, correlationId);
        outgoing.put(TraceContext.TRACEPARENT, hop.header());
        Set<String> dropped = caller.isPresent() ? Set.of() : Set.of(TraceContext.TRACESTATE);

        response.setHeader(CORRELATION_ID, correlationId);
        response.setHeader(TraceContext.TRACEPARENT, hop.header());
        chain.doFilter(
                new RewrittenRequest(request, outgoing, dropped),
                new CorrelatedResponse(response, Set.of(CORRELATION_ID, TraceContext.TRACEPARENT)));
    }

    /** The response, whose correlation headers the gateway has set and the proxied response cannot add to. */
    private static final class CorrelatedResponse extends HttpServletResponseWrapper {

        private final Set<String> owned;

        CorrelatedResponse(HttpServletResponse response, Set<String> owned) {
            super(response);
            this.owned = owned;
        }

        @Override
        public void addHeader(String name, String value) {
            if (!isOwned(name)) {
                super.addHeader(name, value);
            }
        }

        @Override
        public void setHeader(String name, String value) {
            if (!isOwned(name)) {
                super.setHeader(name, value);
            }
        }

        private boolean isOwned(String name) {
            for (String header : owned) {
                if (header.equalsIgnoreCase(name)) {
                    return true;
                }
            }
            return false;
        }
    }
}
