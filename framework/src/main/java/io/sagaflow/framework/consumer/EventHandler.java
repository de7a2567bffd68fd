package io.sagaflow.framework.consumer;

import io.sagaflow.framework.eventstore.EventEnvelope;

/**
 * A consumer's reaction to one event. Runs inside the transaction that records the event as processed, so whatever it
 * writes through the event store or JDBC commits exactly once per event.
 */
@FunctionalInterface
public interface EventHandler {

    void handle(EventEnvelope<Object> event);
}
