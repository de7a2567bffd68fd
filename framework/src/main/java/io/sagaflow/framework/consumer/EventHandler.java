package io.sagaflow.framework.consumer;

import io.sagaflow.framework.eventstore.EventEnvelope;
import java.util.List;

/**
 * A consumer's reaction to one event. Runs inside the transaction that records the event as processed, so whatever it
 * writes through the event store or JDBC commits exactly once per event.
 */
@FunctionalInterface
public interface EventHandler {

    void handle(EventEnvelope<Object> event);

    /**
     * Reacts to {@code events}, each new to the consumer, in their order and in one transaction: a batch the
     * consumer's lane handed over (ADR 0021). By default each is handled on its own; a handler that can do a batch's
     * work together (read, lock and write once for all of it) overrides this, with the same effects as handling each
     * in turn.
     */
    default void handleAll(List<EventEnvelope<Object>> events) {
        for (EventEnvelope<Object> event : events) {
            handle(event);
        }
    }
}
