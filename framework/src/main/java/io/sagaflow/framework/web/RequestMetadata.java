package io.sagaflow.framework.web;

import io.sagaflow.framework.eventstore.EventMetadata;
import jakarta.servlet.http.HttpServletRequest;
import java.util.UUID;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The {@link EventMetadata} of the current HTTP request: its correlation id ({@code X-Correlation-Id}, set or created
 * by {@link CorrelationFilter}) and its W3C trace context ({@code traceparent}, {@code tracestate}), so every event a
 * request causes carries them.
 */
public final class RequestMetadata {

    /** Request attribute holding the correlation id. */
    static final String CORRELATION_ATTRIBUTE = RequestMetadata.class.getName() + ".correlationId";

    private RequestMetadata() {}

    /** The current request's metadata, or a new flow outside a request. */
    public static EventMetadata current() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (!(attributes instanceof ServletRequestAttributes servlet)) {
            return EventMetadata.startingFlow(UUID.randomUUID().toString());
        }
        HttpServletRequest request = servlet.getRequest();
        Object correlation = request.getAttribute(CORRELATION_ATTRIBUTE);
        return new EventMetadata(
                correlation == null ? UUID.randomUUID().toString() : correlation.toString(),
                null,
                request.getHeader("traceparent"),
                request.getHeader("tracestate"));
    }
}
