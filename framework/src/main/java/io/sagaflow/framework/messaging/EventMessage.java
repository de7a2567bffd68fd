package io.sagaflow.framework.messaging;

/**
 * An event as it travels between services on the shared cluster's topic: the envelope's fields with the payload as
 * JSON, so a consumer deserialises (and upcasts) only the types it registered. Serialised by Hazelcast's compact
 * format, which needs no schema registration for records.
 *
 * @param eventId the event's unique id (the key consumers deduplicate on)
 * @param source the publisher the type is registered under: the topic family its messages travel on (ADR 0019, 0036)
 * @param streamId its stream
 * @param version its version in the stream
 * @param type stable type name
 * @param schemaVersion schema version of {@code payload}
 * @param occurredAtMicros when it was appended, microseconds since the epoch
 * @param correlationId the business flow it belongs to
 * @param causationId the message that caused it, or null
 * @param traceparent W3C trace context, or null
 * @param tracestate W3C trace state, or null
 * @param payload the event record as JSON
 */
public record EventMessage(
        String eventId,
        String source,
        String streamId,
        long version,
        String type,
        int schemaVersion,
        long occurredAtMicros,
        String correlationId,
        String causationId,
        String traceparent,
        String tracestate,
        String payload) {}
