package io.sagaflow.order.fulfilment.application;

import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import java.io.Serializable;

/**
 * A message waiting in the saga inbox, with the correlation, causation and trace context the saga's resulting events
 * carry on.
 */
public record SagaInboxEntry(
        SagaMessage message, String correlationId, String causationId, String traceparent, String tracestate)
        implements Serializable {

    public static SagaInboxEntry of(SagaMessage message, EventMetadata metadata) {
        return new SagaInboxEntry(
                message,
                metadata.correlationId(),
                metadata.causationId(),
                metadata.traceparent(),
                metadata.tracestate());
    }

    public EventMetadata metadata() {
        return new EventMetadata(correlationId, causationId, traceparent, tracestate);
    }
}
