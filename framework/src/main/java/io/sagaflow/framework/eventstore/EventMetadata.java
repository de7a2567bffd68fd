package io.sagaflow.framework.eventstore;

import java.util.UUID;

/**
 * What an append knows about why its events happen: the correlation id shared by everything one request or saga
 * causes, the id of the event or command that caused them, and the W3C trace context to continue.
 *
 * @param correlationId groups all events of one business flow; never null
 * @param causationId the id of the message that caused these events, or null for an external request
 * @param traceparent W3C {@code traceparent} header value, or null
 * @param tracestate W3C {@code tracestate} header value, or null
 */
public record EventMetadata(String correlationId, String causationId, String traceparent, String tracestate) {

    public EventMetadata {
        if (correlationId == null || correlationId.isBlank()) {
            throw new IllegalArgumentException("correlationId is required");
        }
    }

    /** Metadata for a flow that starts here, without a cause or trace. */
    public static EventMetadata startingFlow(String correlationId) {
        return new EventMetadata(correlationId, null, null, null);
    }

    /** Metadata for a new flow with a random correlation id. */
    public static EventMetadata newFlow() {
        return startingFlow(UUID.randomUUID().toString());
    }

    /** Metadata for events caused by {@code cause}: same correlation and trace, the cause's id as causation. */
    public static EventMetadata causedBy(EventEnvelope<?> cause) {
        return new EventMetadata(
                cause.correlationId(), cause.eventId().toString(), cause.traceparent(), cause.tracestate());
    }
}
