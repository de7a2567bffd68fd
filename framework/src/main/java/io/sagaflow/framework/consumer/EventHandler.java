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
     * Called once per batch (ADR 0021), inside its transaction, with the events about to be handled (those not
     * processed before, in the order they will be handled), before the first of them is. A handler whose events lock
     * shared rows can take all the batch's locks here in one statement and in one fixed order, instead of event by
     * event: the batch then waits for the rows once, and two batches cannot deadlock on them. Does nothing by
     * default; not called for an event handled on its own.
     */
    default void beforeBatch(List<EventEnvelope<Object>> events) {}
}
