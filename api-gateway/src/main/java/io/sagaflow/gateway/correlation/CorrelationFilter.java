package io.sagaflow.gateway.correlation;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
                new CorrelatedRequest(request, outgoing, dropped),
                new CorrelatedResponse(response, Set.of(CORRELATION_ID, TraceContext.TRACEPARENT)));
    }

    /** The request with the gateway's correlation headers in place of the caller's. */
    private static final class CorrelatedRequest extends HttpServletRequestWrapper {

        private final Map<String, String> replaced;
        private final Set<String> dropped;

        CorrelatedRequest(HttpServletRequest request, Map<String, String> replaced, Set<String> dropped) {
            super(request);
            this.replaced = replaced;
            this.dropped = dropped;
        }

        @Override
        public String getHeader(String name) {
            String value = replacement(name);
            return value != null ? value : isDropped(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            String value = replacement(name);
            if (value != null) {
                return Collections.enumeration(Set.of(value));
            }
            return isDropped(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            Set<String> names = new LinkedHashSet<>();
            for (Enumeration<String> given = super.getHeaderNames(); given.hasMoreElements(); ) {
                String name = given.nextElement();
                if (replacement(name) == null && !isDropped(name)) {
                    names.add(name);
                }
            }
            names.addAll(replaced.keySet());
            return Collections.enumeration(names);
        }

        private String replacement(String name) {
            for (var entry : replaced.entrySet()) {
                if (entry.getKey().equalsIgnoreCase(name)) {
                    return entry.getValue();
                }
            }
            return null;
        }

        private boolean isDropped(String name) {
            for (String header : dropped) {
                if (header.equalsIgnoreCase(name)) {
                    return true;
                }
            }
            return false;
        }
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
