package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.domain.Decider;
import java.util.List;

/**
 * Loads and changes one kind of event-sourced aggregate written as a {@link Decider}: load is the latest snapshot plus
 * the events after it; a command is decided on that state and its events appended with the loaded version as the
 * expected one. A snapshot is taken whenever an append crosses a multiple of {@code snapshotEvery} events.
 *
 * @param <C> command type
 * @param <S> state type (a record, for snapshots)
 * @param <E> event type
 */
public final class DeciderRepository<C, S, E> {

    private final EventStore events;
    private final SnapshotStore snapshots;
    private final Decider<C, S, E> decider;
    private final Class<S> stateType;
    private final String snapshotType;
    private final int snapshotSchemaVersion;
    private final int snapshotEvery;

    /**
     * @param snapshotType stable name of the state's snapshot format
     * @param snapshotSchemaVersion bump when the state record changes: older snapshots are then ignored
     * @param snapshotEvery events between snapshots; 0 for none
     */
    public DeciderRepository(
            EventStore events,
            SnapshotStore snapshots,
            Decider<C, S, E> decider,
            Class<S> stateType,
            String snapshotType,
            int snapshotSchemaVersion,
            int snapshotEvery) {
        this.events = events;
        this.snapshots = snapshots;
        this.decider = decider;
        this.stateType = stateType;
        this.snapshotType = snapshotType;
        this.snapshotSchemaVersion = snapshotSchemaVersion;
        this.snapshotEvery = snapshotEvery;
    }

    /** The current state of {@code streamId} and the version it reflects (0 and the initial state if none). */
    @SuppressWarnings("unchecked")
    public Loaded<S> load(String streamId) {
        S state = decider.initialState();
        long version = 0;
        if (snapshotEvery > 0) {
            var snapshot = snapshots.load(streamId, snapshotType, snapshotSchemaVersion, stateType);
            if (snapshot.isPresent()) {
                state = snapshot.get().state();
                version = snapshot.get().version();
            }
        }
        for (EventEnvelope<Object> envelope : events.readStream(streamId, version + 1)) {
            state = decider.evolve(state, (E) envelope.payload());
            version = envelope.version();
        }
        return new Loaded<>(state, version);
    }

    /**
     * Decides {@code command} on the current state of {@code streamId} and appends the resulting events.
     *
     * @return the appended events, empty if the command changed nothing
     * @throws ConcurrencyConflictException if another writer appended in between; the caller may retry
     */
    public List<E> handle(String streamId, C command, EventMetadata metadata) {
        Loaded<S> loaded = load(streamId);
        List<E> decided = decider.decide(command, loaded.state());
        if (decided.isEmpty()) {
            return decided;
        }
        events.append(streamId, ExpectedVersion.exactly(loaded.version()), decided, metadata);
        long newVersion = loaded.version() + decided.size();
        if (snapshotEvery > 0 && newVersion / snapshotEvery > loaded.version() / snapshotEvery) {
            snapshots.save(
                    streamId,
                    newVersion,
                    snapshotType,
                    snapshotSchemaVersion,
                    decider.evolveAll(loaded.state(), decided));
        }
        return decided;
    }

    /**
     * Decides {@code command} on the initial state and starts {@code streamId} with the resulting events, without
     * reading it first: for streams named by an id the caller has just generated, which nothing else can have
     * written. The append still checks that the stream does not exist.
     *
     * @return the appended events as stored (with their versions and time), none if the command changed nothing
     * @throws ConcurrencyConflictException if the stream exists after all
     */
    public EventStore.AppendResult create(String streamId, C command, EventMetadata metadata) {
        return create(streamId, command, metadata, null);
    }

    /**
     * As {@link #create(String, Object, EventMetadata)}, for a request that carries an idempotency key: the store
     * records the key with the events.
     *
     * @param idempotencyKey the request's key, or null for none
     * @throws IdempotencyKeyUsedException if a request with the key created a stream before
     */
    public EventStore.AppendResult create(
            String streamId, C command, EventMetadata metadata, IdempotencyKey idempotencyKey) {
        List<E> decided = decider.decide(command, decider.initialState());
        if (decided.isEmpty()) {
            return new EventStore.AppendResult(streamId, 0, List.of());
        }
        EventStore.AppendResult appended = events.appendAll(List.of(new EventStore.StreamAppend(
                        streamId, ExpectedVersion.noStream(), decided, metadata, idempotencyKey)))
                .getFirst();
        if (snapshotEvery > 0 && decided.size() >= snapshotEvery) {
            snapshots.save(
                    streamId,
                    decided.size(),
                    snapshotType,
                    snapshotSchemaVersion,
                    decider.evolveAll(decider.initialState(), decided));
        }
        return appended;
    }

    /**
     * A loaded aggregate.
     *
     * @param state its state
     * @param version the stream version the state reflects
     * @param <S> state type
     */
    public record Loaded<S>(S state, long version) {

        /** The state after {@code events}, decided on this one, and the version they bring the stream to. */
        public <E> Loaded<S> then(Decider<?, S, E> decider, List<? extends E> events) {
            return new Loaded<>(decider.evolveAll(state, events), version + events.size());
        }
    }

    /** The state and version of a stream whose events were read as {@code stored} (all of them, in order). */
    @SuppressWarnings("unchecked")
    public static <S, E> Loaded<S> replay(Decider<?, S, E> decider, List<EventEnvelope<Object>> stored) {
        S state = decider.initialState();
        long version = 0;
        for (EventEnvelope<Object> envelope : stored) {
            state = decider.evolve(state, (E) envelope.payload());
            version = envelope.version();
        }
        return new Loaded<>(state, version);
    }
}
