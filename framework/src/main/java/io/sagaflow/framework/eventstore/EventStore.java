package io.sagaflow.framework.eventstore;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Append-only storage of event streams.
 *
 * <p>Guarantees: an append is atomic (all its events or none); within a stream versions start at 1 and have no gaps
 * or duplicates; of two appends racing on the same expected version exactly one succeeds and the other fails with
 * {@link ConcurrencyConflictException}. {@link #readAll} returns events in a global order that never lets an event
 * appear behind a position a reader has already passed. Appends join the caller's transaction when there is one, so
 * a consumer's bookkeeping and the events it appends commit together.
 */
public interface EventStore {

    /**
     * Appends {@code events} to {@code streamId} if the stream is at {@code expected}.
     *
     * @throws ConcurrencyConflictException if the stream is not at the expected version
     */
    AppendResult append(String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata);

    /**
     * Appends to many streams at once, all or nothing: each of {@code appends} as {@link #append} would, in their
     * order, in one round trip. A stream may come more than once if each later append expects exactly the version
     * the earlier one leaves, as a writer that decides twice on one stream in one transaction does.
     *
     * @return one result per append, in their order
     * @throws ConcurrencyConflictException if a stream is not at its expected version. Nothing of the call is kept:
     *     its transaction rolls back, or, when it joined the caller's, that one is marked rollback-only
     * @throws IdempotencyKeyUsedException if an append's idempotency key was used before, with the same effect
     * @throws IllegalArgumentException if an append is empty, or a stream's appends do not follow on one another
     */
    List<AppendResult> appendAll(List<StreamAppend> appends);

    /** The events of {@code streamId} from {@code fromVersion} (inclusive) on, in version order. */
    List<EventEnvelope<Object>> readStream(String streamId, long fromVersion);

    /**
     * The whole of each of {@code streamIds}, in version order, read together; a stream that does not exist maps to
     * an empty list.
     */
    Map<String, List<EventEnvelope<Object>>> readStreams(Collection<String> streamIds);

    /**
     * The events of each stream of {@code afterVersions} with a version above the one it maps to, in version order,
     * read together; a stream with none maps to an empty list. For a reader that keeps a stream's prefix and only
     * needs what came after it.
     */
    Map<String, List<EventEnvelope<Object>>> readStreamsAfter(Map<String, Long> afterVersions);

    /** Up to {@code limit} events after {@code after} in global order; empty when the reader is caught up. */
    List<EventEnvelope<Object>> readAll(GlobalPosition after, int limit);

    /** The stream's current version, 0 if it does not exist. */
    long currentVersion(String streamId);

    /**
     * One stream's part of {@link #appendAll}: what {@link #append} takes, and the {@link IdempotencyKey} of the
     * request that makes it, if it has one. The store records the key with the events and refuses a second append
     * with it ({@link IdempotencyKeyUsedException}).
     */
    record StreamAppend(
            String streamId,
            ExpectedVersion expected,
            List<?> events,
            EventMetadata metadata,
            IdempotencyKey idempotencyKey) {

        public StreamAppend {
            events = List.copyOf(events);
        }

        /** An append without an idempotency key. */
        public StreamAppend(String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata) {
            this(streamId, expected, events, metadata, null);
        }
    }

    /**
     * The outcome of an append.
     *
     * @param streamId the stream appended to
     * @param nextExpectedVersion the stream's version after the append, to expect in the next one
     * @param events the appended events with their envelopes
     */
    record AppendResult(String streamId, long nextExpectedVersion, List<EventEnvelope<Object>> events) {}
}
