package io.sagaflow.framework.eventstore;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored event with everything the store knows about it. The payload is the plain domain record; identity,
 * position, schema, timing and tracing are the envelope's.
 *
 * @param eventId unique id of this event, stable across redeliveries
 * @param streamId the stream the event belongs to
 * @param version its version in that stream, from 1, without gaps
 * @param globalPosition its position in the store's global commit order
 * @param type the stable type name from the {@link EventTypeRegistry}
 * @param schemaVersion the schema version the payload was written with (the payload itself is always upcast to the
 *     current version)
 * @param occurredAt when it was appended
 * @param correlationId the business flow it belongs to
 * @param causationId the message that caused it, or null
 * @param traceparent W3C trace context, or null
 * @param tracestate W3C trace state, or null
 * @param payload the domain event
 * @param <E> the payload type
 */
public record EventEnvelope<E>(
        UUID eventId,
        String streamId,
        long version,
        GlobalPosition globalPosition,
        String type,
        int schemaVersion,
        Instant occurredAt,
        String correlationId,
        String causationId,
        String traceparent,
        String tracestate,
        E payload) {}
