package io.sagaflow.gateway.headers;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A request with some headers set by the gateway in place of the caller's, and others dropped. Everything that reads
 * the request's headers after it (the routing, which copies them to the service) sees the rewritten ones only.
 * Header names match regardless of case.
 */
public final class RewrittenRequest extends HttpServletRequestWrapper {

    private final Map<String, String> replaced;
    private final Set<String> dropped;

    /**
     * @param replaced headers whose one value the gateway sets, whatever the caller sent
     * @param dropped headers the service must not see from the caller
     */
    public RewrittenRequest(HttpServletRequest request, Map<String, String> replaced, Set<String> dropped) {
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
