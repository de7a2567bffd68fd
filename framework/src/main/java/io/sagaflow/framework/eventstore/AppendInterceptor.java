package io.sagaflow.framework.eventstore;

import java.util.List;

/**
 * Called inside an append's transaction, after its events are written and before it commits; whatever it writes
 * commits or rolls back with the events. The transactional outbox is one.
 */
@FunctionalInterface
public interface AppendInterceptor {

    /** {@code events} were just appended; their serialised payloads are in the same order. */
    void appended(List<StoredEvent> events);

    /**
     * An appended event and what was stored of it.
     *
     * @param envelope the envelope with the payload record
     * @param payloadJson the payload as stored
     * @param published whether the event's type is published to the shared topic
     */
    record StoredEvent(EventEnvelope<Object> envelope, String payloadJson, boolean published) {}
}
