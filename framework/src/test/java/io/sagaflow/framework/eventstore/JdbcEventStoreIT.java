package io.sagaflow.framework.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.domain.Decider;
import io.sagaflow.framework.outbox.OutboxSignal;
import io.sagaflow.framework.outbox.OutboxWriter;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Increment;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.LimitReached;
import io.sagaflow.framework.sample.Counter.Open;
import io.sagaflow.framework.sample.Counter.Opened;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JdbcEventStoreIT {

    private static Stores stores;
    private static JdbcEventStore store;

    @BeforeAll
    static void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        store = stores.eventStore(new OutboxWriter(16, new OutboxSignal()));
    }

    @AfterAll
    static void tearDown() {
        stores.close();
    }

    @Test
    void appendsAndReadsAStreamWithEnvelopes() {
        String stream = "counter-" + UUID.randomUUID();
        EventMetadata metadata = new EventMetadata("corr-1", "cause-1", "00-trace-span-01", "k=v");
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("c", 5), new Incremented(1)), metadata);
        store.append(stream, ExpectedVersion.exactly(2), List.of(new Incremented(2)), metadata);

        List<EventEnvelope<Object>> events = store.readStream(stream, 1);
        assertThat(events).extracting(EventEnvelope::version).containsExactly(1L, 2L, 3L);
        assertThat(events)
                .extracting(EventEnvelope::payload)
                .containsExactly(new Opened("c", 5), new Incremented(1), new Incremented(2));
        EventEnvelope<Object> first = events.getFirst();
        assertThat(first.type()).isEqualTo("CounterOpened");
        assertThat(first.schemaVersion()).isEqualTo(1);
        assertThat(first.correlationId()).isEqualTo("corr-1");
        assertThat(first.causationId()).isEqualTo("cause-1");
        assertThat(first.traceparent()).isEqualTo("00-trace-span-01");
        assertThat(first.tracestate()).isEqualTo("k=v");
        assertThat(events.get(2).globalPosition()).isGreaterThan(first.globalPosition());
        assertThat(store.readStream(stream, 3)).hasSize(1);
        assertThat(store.currentVersion(stream)).isEqualTo(3);
    }

    @Test
    void readsSeveralStreamsTogetherEachInVersionOrder() {
        String first = "counter-" + UUID.randomUUID();
        String second = "counter-" + UUID.randomUUID();
        String missing = "counter-" + UUID.randomUUID();
        store.append(first, ExpectedVersion.noStream(), List.of(new Opened("a", 5)), EventMetadata.newFlow());
        store.append(second, ExpectedVersion.noStream(), List.of(new Opened("b", 5)), EventMetadata.newFlow());
        store.append(
                first,
                ExpectedVersion.exactly(1),
                List.of(new Incremented(1), new Incremented(2)),
                EventMetadata.newFlow());

        Map<String, List<EventEnvelope<Object>>> streams = store.readStreams(List.of(first, second, missing));

        assertThat(streams).containsOnlyKeys(first, second, missing);
        assertThat(streams.get(first))
                .extracting(EventEnvelope::payload)
                .containsExactly(new Opened("a", 5), new Incremented(1), new Incremented(2));
        assertThat(streams.get(first)).isEqualTo(store.readStream(first, 1));
        assertThat(streams.get(second)).extracting(EventEnvelope::version).containsExactly(1L);
        assertThat(streams.get(missing)).isEmpty();
        assertThat(store.readStreams(List.of())).isEmpty();
    }

    @Test
    void readsOnlyWhatEachStreamGotAfterTheVersionTheReaderHas() {
        String grown = "counter-" + UUID.randomUUID();
        String unchanged = "counter-" + UUID.randomUUID();
        String missing = "counter-" + UUID.randomUUID();
        store.append(
                grown,
                ExpectedVersion.noStream(),
                List.of(new Opened("g", 1), new Incremented(1), new Incremented(2)),
                EventMetadata.newFlow());
        store.append(unchanged, ExpectedVersion.noStream(), List.of(new Opened("u", 1)), EventMetadata.newFlow());
        Map<String, Long> known = new java.util.LinkedHashMap<>();
        known.put(grown, 1L);
        known.put(unchanged, 1L);
        known.put(missing, 0L);

        Map<String, List<EventEnvelope<Object>>> after = store.readStreamsAfter(known);

        assertThat(after).containsOnlyKeys(grown, unchanged, missing);
        assertThat(after.get(grown)).isEqualTo(store.readStream(grown, 2));
        assertThat(after.get(grown)).extracting(EventEnvelope::version).containsExactly(2L, 3L);
        assertThat(after.get(unchanged)).isEmpty();
        assertThat(after.get(missing)).isEmpty();
        assertThat(store.readStreamsAfter(Map.of(unchanged, 0L)).get(unchanged))
                .isEqualTo(store.readStream(unchanged, 1));
    }

    @Test
    void givesEveryEventATimeOrderedIdThatPostgresqlSortsInTheOrderOfItsMillisecond() throws InterruptedException {
        String stream = "counter-" + UUID.randomUUID();
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("t", 100)), EventMetadata.newFlow());
        for (long version = 1; version <= 5; version++) {
            Thread.sleep(2);
            store.append(
                    stream, ExpectedVersion.exactly(version), List.of(new Incremented(1)), EventMetadata.newFlow());
        }

        List<UUID> inVersionOrder =
                store.readStream(stream, 1).stream().map(EventEnvelope::eventId).toList();
        assertThat(inVersionOrder).allSatisfy(id -> assertThat(id.version()).isEqualTo(7));
        // ADR 0064: the index on event ids takes each new event at its right edge.
        assertThat(stores.jdbc()
                        .queryForList(
                                "select event_id from es_event where stream_id = ? order by event_id",
                                UUID.class,
                                stream))
                .containsExactlyElementsOf(inVersionOrder);
    }

    @Test
    void appendsToManyStreamsInOneCallEachAsItsOwnAppendWould() {
        String fresh = "counter-" + UUID.randomUUID();
        String existing = "counter-" + UUID.randomUUID();
        String unchecked = "counter-" + UUID.randomUUID();
        store.append(existing, ExpectedVersion.noStream(), List.of(new Opened("e", 9)), EventMetadata.newFlow());
        EventMetadata first = new EventMetadata("corr-a", "cause-a", null, null);
        EventMetadata second = new EventMetadata("corr-b", "cause-b", "00-trace-span-01", null);

        List<EventStore.AppendResult> results = store.appendAll(List.of(
                new EventStore.StreamAppend(
                        fresh, ExpectedVersion.noStream(), List.of(new Opened("f", 9), new Incremented(1)), first),
                new EventStore.StreamAppend(existing, ExpectedVersion.exactly(1), List.of(new Incremented(2)), first),
                // A later append to the same stream, following on from the first: its own metadata is kept.
                new EventStore.StreamAppend(fresh, ExpectedVersion.exactly(2), List.of(new Incremented(3)), second),
                new EventStore.StreamAppend(unchecked, ExpectedVersion.any(), List.of(new Opened("u", 9)), second)));

        assertThat(results)
                .extracting(EventStore.AppendResult::streamId, EventStore.AppendResult::nextExpectedVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(fresh, 2L),
                        org.assertj.core.groups.Tuple.tuple(existing, 2L),
                        org.assertj.core.groups.Tuple.tuple(fresh, 3L),
                        org.assertj.core.groups.Tuple.tuple(unchecked, 1L));
        List<EventEnvelope<Object>> stored = store.readStream(fresh, 1);
        assertThat(stored)
                .extracting(EventEnvelope::payload)
                .containsExactly(new Opened("f", 9), new Incremented(1), new Incremented(3));
        assertThat(stored).extracting(EventEnvelope::causationId).containsExactly("cause-a", "cause-a", "cause-b");
        assertThat(stored.get(2).traceparent()).isEqualTo("00-trace-span-01");
        assertThat(stored)
                .as("what the call returned is what was stored")
                .containsExactly(
                        results.get(0).events().get(0),
                        results.get(0).events().get(1),
                        results.get(2).events().getFirst());
        List<GlobalPosition> positions = results.stream()
                .flatMap(result -> result.events().stream())
                .map(EventEnvelope::globalPosition)
                .toList();
        assertThat(positions).as("global order follows the order of the call").isSorted();
        assertThat(store.readStream(existing, 1))
                .extracting(EventEnvelope::version)
                .containsExactly(1L, 2L);
        assertThat(store.currentVersion(unchecked)).isEqualTo(1);
        assertThat(stores.jdbc()
                        .queryForList(
                                "select stream_version from outbox where stream_id = ? order by id", Long.class, fresh))
                .as("one outbox row per published event")
                .containsExactly(1L, 2L, 3L);
    }

    @Test
    void aConflictOnAnyStreamOfAnAppendToManyKeepsNothingOfIt() {
        String moved = "counter-" + UUID.randomUUID();
        String other = "counter-" + UUID.randomUUID();
        store.append(moved, ExpectedVersion.noStream(), List.of(new Opened("m", 9), new Incremented(1)), flow());

        assertThatThrownBy(() -> store.appendAll(List.of(
                        new EventStore.StreamAppend(
                                other, ExpectedVersion.noStream(), List.of(new Opened("o", 9)), flow()),
                        new EventStore.StreamAppend(
                                moved, ExpectedVersion.exactly(1), List.of(new Incremented(2)), flow()))))
                .isInstanceOfSatisfying(ConcurrencyConflictException.class, e -> {
                    assertThat(e.streamId()).isEqualTo(moved);
                    assertThat(e.expectedVersion()).isEqualTo(1);
                    assertThat(e.actualVersion()).isEqualTo(2);
                });
        assertThat(store.readStream(other, 1))
                .as("the stream that did not conflict")
                .isEmpty();
        assertThat(store.currentVersion(other)).isZero();
        assertThat(store.readStream(moved, 1)).hasSize(2);

        // Joined to a caller's transaction, the conflict leaves that transaction unable to commit.
        String joined = "counter-" + UUID.randomUUID();
        assertThatThrownBy(() -> stores.transactions().executeWithoutResult(status -> {
                    try {
                        store.appendAll(List.of(
                                new EventStore.StreamAppend(
                                        joined, ExpectedVersion.noStream(), List.of(new Opened("j", 9)), flow()),
                                new EventStore.StreamAppend(
                                        moved, ExpectedVersion.noStream(), List.of(new Opened("m", 9)), flow())));
                    } catch (ConcurrencyConflictException ignored) {
                        // a careless caller carries on
                    }
                }))
                .isInstanceOf(org.springframework.transaction.UnexpectedRollbackException.class);
        assertThat(store.readStream(joined, 1)).isEmpty();
    }

    @Test
    void refusesAnAppendToManyWhoseAppendsToOneStreamDoNotFollowOnOneAnother() {
        String stream = "counter-" + UUID.randomUUID();
        assertThatThrownBy(() -> store.appendAll(List.of(
                        new EventStore.StreamAppend(
                                stream, ExpectedVersion.noStream(), List.of(new Opened("s", 9)), flow()),
                        new EventStore.StreamAppend(
                                stream, ExpectedVersion.exactly(3), List.of(new Incremented(1)), flow()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(stream);
        assertThatThrownBy(() -> store.appendAll(List.of(
                        new EventStore.StreamAppend(stream, ExpectedVersion.any(), List.of(new Opened("s", 9)), flow()),
                        new EventStore.StreamAppend(
                                stream, ExpectedVersion.exactly(1), List.of(new Incremented(1)), flow()))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.appendAll(
                        List.of(new EventStore.StreamAppend(stream, ExpectedVersion.noStream(), List.of(), flow()))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.appendAll(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.currentVersion(stream)).isZero();
    }

    private static EventMetadata flow() {
        return EventMetadata.newFlow();
    }

    @Test
    void appendsWithoutACheckAfterWhateverIsThereAndReturnsEachEventsPosition() {
        String stream = "counter-" + UUID.randomUUID();
        EventStore.AppendResult created = store.append(
                stream,
                ExpectedVersion.any(),
                List.of(new Opened("c", 9), new Incremented(1)),
                EventMetadata.newFlow());
        EventStore.AppendResult appended = store.append(
                stream,
                ExpectedVersion.any(),
                List.of(new Incremented(2), new Incremented(3), new Incremented(4)),
                EventMetadata.newFlow());

        assertThat(created.nextExpectedVersion()).isEqualTo(2);
        assertThat(appended.nextExpectedVersion()).isEqualTo(5);
        assertThat(appended.events()).extracting(EventEnvelope::version).containsExactly(3L, 4L, 5L);
        assertThat(appended.events())
                .extracting(EventEnvelope::payload)
                .containsExactly(new Incremented(2), new Incremented(3), new Incremented(4));
        List<EventEnvelope<Object>> stored = store.readStream(stream, 1);
        assertThat(stored)
                .extracting(EventEnvelope::globalPosition)
                .as("the positions the append returned are the stored ones, in version order")
                .containsExactlyElementsOf(Stream.concat(created.events().stream(), appended.events().stream())
                        .map(EventEnvelope::globalPosition)
                        .toList())
                .isSorted();
        assertThat(store.currentVersion(stream)).isEqualTo(5);
    }

    @Test
    void rejectsAnAppendAtTheWrongExpectedVersionAndWritesNothing() {
        String stream = "counter-" + UUID.randomUUID();
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("c", 5)), EventMetadata.newFlow());

        assertThatThrownBy(() -> store.append(
                        stream, ExpectedVersion.noStream(), List.of(new Opened("c", 5)), EventMetadata.newFlow()))
                .isInstanceOf(ConcurrencyConflictException.class);
        assertThatThrownBy(() -> store.append(
                        stream, ExpectedVersion.exactly(5), List.of(new Incremented(1)), EventMetadata.newFlow()))
                .isInstanceOfSatisfying(ConcurrencyConflictException.class, e -> {
                    assertThat(e.expectedVersion()).isEqualTo(5);
                    assertThat(e.actualVersion()).isEqualTo(1);
                });
        assertThat(store.readStream(stream, 1)).hasSize(1);
    }

    @Test
    void ofManyWritersRacingOnOneExpectedVersionExactlyOneWinsAndTheStreamHasNoGaps() throws Exception {
        String stream = "counter-" + UUID.randomUUID();
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("c", 1_000_000)), EventMetadata.newFlow());
        int writers = 8;
        int rounds = 40;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < rounds; round++) {
                long expected = store.currentVersion(stream);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    outcomes.add(pool.submit(() -> {
                        start.await();
                        try {
                            store.append(
                                    stream,
                                    ExpectedVersion.exactly(expected),
                                    List.of(new Incremented(1), new Incremented(1)),
                                    EventMetadata.newFlow());
                            return true;
                        } catch (ConcurrencyConflictException e) {
                            return false;
                        }
                    }));
                }
                start.countDown();
                int wins = 0;
                for (Future<Boolean> outcome : outcomes) {
                    wins += outcome.get() ? 1 : 0;
                }
                assertThat(wins).as("winners in round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        List<Long> versions =
                store.readStream(stream, 1).stream().map(EventEnvelope::version).toList();
        assertThat(versions).hasSize(1 + rounds * 2);
        for (int i = 0; i < versions.size(); i++) {
            assertThat(versions.get(i)).isEqualTo(i + 1L);
        }
    }

    @Test
    void writesOutboxRowsForPublishedTypesInTheAppendTransactionOnly() {
        String stream = "counter-" + UUID.randomUUID();
        store.append(
                stream,
                ExpectedVersion.noStream(),
                List.of(new Opened("c", 1), new Incremented(1), new LimitReached(1)),
                EventMetadata.newFlow());
        assertThat(stores.jdbc()
                        .queryForList("select type from outbox where stream_id = ? order by id", String.class, stream))
                .containsExactly("CounterOpened", "CounterIncremented");

        String rolledBack = "counter-" + UUID.randomUUID();
        assertThatThrownBy(() -> stores.transactions().executeWithoutResult(status -> {
                    store.append(
                            rolledBack,
                            ExpectedVersion.noStream(),
                            List.of(new Opened("c", 1)),
                            EventMetadata.newFlow());
                    throw new IllegalStateException("the caller's transaction fails after the append");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(store.readStream(rolledBack, 1)).isEmpty();
        assertThat(stores.jdbc()
                        .queryForObject("select count(*) from outbox where stream_id = ?", Long.class, rolledBack))
                .isZero();
    }

    @Test
    void writesEachOutboxRowAsTheRelayPublishesItInTheAppendsOwnStatement() {
        String one = "counter-" + UUID.randomUUID();
        String many = "counter-" + UUID.randomUUID();
        String any = "counter-" + UUID.randomUUID();
        EventMetadata metadata = new EventMetadata("corr-o", "cause-o", "00-trace-span-01", "k=v");
        store.append(one, ExpectedVersion.noStream(), List.of(new Opened("o", 3), new LimitReached(3)), metadata);
        store.append(one, ExpectedVersion.exactly(2), List.of(new Incremented(1), new Incremented(2)), metadata);
        store.appendAll(List.of(
                new EventStore.StreamAppend(many, ExpectedVersion.noStream(), List.of(new LimitReached(1)), metadata),
                new EventStore.StreamAppend(any, ExpectedVersion.any(), List.of(new Opened("a", 1)), metadata),
                new EventStore.StreamAppend(
                        many, ExpectedVersion.exactly(1), List.of(new Opened("m", 1), new Incremented(4)), metadata)));
        store.append(any, ExpectedVersion.any(), List.of(new Incremented(5)), metadata);

        for (String stream : List.of(one, many, any)) {
            List<Map<String, Object>> rows = stores.jdbc()
                    .queryForList(
                            "select o.bucket, o.stream_version, o.type, o.schema_version = e.schema_version as same_schema,"
                                    + " o.occurred_at = e.occurred_at"
                                    + " as same_time, o.payload::jsonb = e.payload as same_payload, o.correlation_id,"
                                    + " o.causation_id, o.traceparent, o.tracestate"
                                    + " from outbox o join es_event e on e.event_id = o.event_id and e.stream_id ="
                                    + " o.stream_id and e.version = o.stream_version"
                                    + " where o.stream_id = ? order by o.id",
                            stream);
            List<String> published = store.readStream(stream, 1).stream()
                    .filter(event -> !event.type().equals("CounterLimitReached"))
                    .map(event -> event.version() + " " + event.type())
                    .toList();
            assertThat(rows)
                    .as("one row per published event of %s, in version order, joined to its event", stream)
                    .extracting(row -> row.get("stream_version") + " " + row.get("type"))
                    .containsExactlyElementsOf(published);
            assertThat(rows).allSatisfy(row -> {
                assertThat(row.get("bucket")).isEqualTo(OutboxWriter.bucketOf(stream, 16));
                assertThat(row.get("same_schema")).isEqualTo(true);
                assertThat(row.get("same_time")).isEqualTo(true);
                assertThat(row.get("same_payload")).isEqualTo(true);
                assertThat(row.get("correlation_id")).isEqualTo("corr-o");
                assertThat(row.get("causation_id")).isEqualTo("cause-o");
                assertThat(row.get("traceparent")).isEqualTo("00-trace-span-01");
                assertThat(row.get("tracestate")).isEqualTo("k=v");
            });
        }
        assertThat(stores.jdbc().queryForObject("select count(*) from outbox where stream_id = ?", Long.class, many))
                .isEqualTo(2);
    }

    @Test
    void writesNoOutboxRowForAnAppendThatConflictsEvenIfTheCallerCarriesOn() {
        String moved = "counter-" + UUID.randomUUID();
        store.append(moved, ExpectedVersion.noStream(), List.of(new Opened("m", 9)), flow());
        long before = stores.jdbc().queryForObject("select count(*) from outbox", Long.class);
        String count = "select count(*) from outbox where stream_id = ?";

        // Outside a caller's transaction the store's own transaction rolls back; inside one, the statement that lost
        // the race inserted no row for the stream it lost on, whatever the caller does next.
        List<Runnable> conflicting = List.of(
                () -> store.append(moved, ExpectedVersion.exactly(5), List.of(new Incremented(1)), flow()),
                () -> store.appendAll(List.of(
                        new EventStore.StreamAppend(
                                moved, ExpectedVersion.noStream(), List.of(new Opened("x", 1)), flow()),
                        new EventStore.StreamAppend(
                                "counter-" + UUID.randomUUID(),
                                ExpectedVersion.any(),
                                List.of(new Opened("y", 1)),
                                flow()))));
        for (Runnable append : conflicting) {
            assertThatThrownBy(append::run).isInstanceOf(ConcurrencyConflictException.class);
            Long inside = stores.transactions().execute(status -> {
                status.setRollbackOnly();
                try {
                    append.run();
                } catch (ConcurrencyConflictException expected) {
                    // carries on in the same transaction
                }
                return stores.jdbc().queryForObject(count, Long.class, moved);
            });
            assertThat(inside)
                    .as("rows of the stream it lost on, in the caller's transaction")
                    .isOne();
        }
        assertThat(stores.jdbc().queryForObject("select count(*) from outbox", Long.class))
                .isEqualTo(before);
    }

    @Test
    void aStoreWithoutAnOutboxWritesNoOutboxRows() {
        JdbcEventStore plain = stores.eventStore();
        String stream = "counter-" + UUID.randomUUID();
        plain.append(stream, ExpectedVersion.noStream(), List.of(new Opened("p", 1)), flow());
        plain.appendAll(List.of(
                new EventStore.StreamAppend(stream, ExpectedVersion.exactly(1), List.of(new Incremented(1)), flow()),
                new EventStore.StreamAppend(
                        "counter-" + UUID.randomUUID(),
                        ExpectedVersion.noStream(),
                        List.of(new Opened("q", 1)),
                        flow())));
        assertThat(plain.readStream(stream, 1)).hasSize(2);
        assertThat(stores.jdbc().queryForObject("select count(*) from outbox where stream_id = ?", Long.class, stream))
                .isZero();
    }

    @Test
    void upcastsOldSchemaVersionsOnStreamAndGlobalReads() {
        String stream = "counter-" + UUID.randomUUID();
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("c", 9)), EventMetadata.newFlow());
        // An event written by an older release, at schema v1 where the field was called "amount".
        stores.jdbc()
                .update(
                        "update es_stream set version = 2 where stream_id = ?;"
                                + " insert into es_event (stream_id, version, event_id, type, schema_version,"
                                + " occurred_at, correlation_id, payload) values (?, 2, ?, 'CounterIncremented', 1,"
                                + " now(), 'old', '{\"amount\": 7}'::jsonb)",
                        stream,
                        stream,
                        UUID.randomUUID());

        assertThat(store.readStream(stream, 2)).singleElement().satisfies(event -> {
            assertThat(event.payload()).isEqualTo(new Incremented(7));
            assertThat(event.schemaVersion()).isEqualTo(1);
        });
        assertThat(readAllOf(stream)).extracting(EventEnvelope::payload).contains(new Incremented(7));
    }

    @Test
    void loadsFromTheLatestSnapshotPlusLaterEvents() {
        Decider<Counter.CounterCommand, Counter.State, Counter.CounterEvent> counter = new Counter();
        SnapshotStore snapshots = new SnapshotStore(stores.jdbc(), stores.serializer());
        var repository = new DeciderRepository<>(store, snapshots, counter, Counter.State.class, "CounterState", 1, 10);
        String stream = "counter-" + UUID.randomUUID();
        repository.handle(stream, new Open("c", 1_000), EventMetadata.newFlow());
        for (int i = 0; i < 24; i++) {
            repository.handle(stream, new Increment(2), EventMetadata.newFlow());
        }

        assertThat(snapshots.load(stream, "CounterState", 1, Counter.State.class))
                .hasValueSatisfying(snapshot -> assertThat(snapshot.version()).isEqualTo(20));
        var loaded = repository.load(stream);
        assertThat(loaded.version()).isEqualTo(25);
        assertThat(loaded.state()).isEqualTo(new Counter.State(true, 48, 1_000));
        // A snapshot of another schema version is ignored: the stream is replayed instead, with the same result.
        var replayed = new DeciderRepository<>(store, snapshots, counter, Counter.State.class, "CounterState", 2, 10);
        assertThat(replayed.load(stream)).isEqualTo(loaded);
    }

    @Test
    void createStartsANewStreamWithoutReadingIt_andRefusesOneThatExists() {
        Decider<Counter.CounterCommand, Counter.State, Counter.CounterEvent> counter = new Counter();
        SnapshotStore snapshots = new SnapshotStore(stores.jdbc(), stores.serializer());
        var repository = new DeciderRepository<>(store, snapshots, counter, Counter.State.class, "CounterState", 1, 10);
        String stream = "counter-" + UUID.randomUUID();

        assertThat(repository
                        .create(stream, new Open("c", 5), EventMetadata.newFlow())
                        .events())
                .extracting(EventEnvelope::payload)
                .containsExactly(new Opened("c", 5));

        assertThat(repository.load(stream)).isEqualTo(new DeciderRepository.Loaded<>(new Counter.State(true, 0, 5), 1));
        assertThatThrownBy(() -> repository.create(stream, new Open("c", 5), EventMetadata.newFlow()))
                .isInstanceOf(ConcurrencyConflictException.class);
        assertThat(store.readStream(stream, 1)).hasSize(1);
    }

    private List<EventEnvelope<Object>> readAllOf(String stream) {
        List<EventEnvelope<Object>> all = new ArrayList<>();
        GlobalPosition position = GlobalPosition.START;
        List<EventEnvelope<Object>> page;
        while (!(page = store.readAll(position, 500)).isEmpty()) {
            all.addAll(page);
            position = page.getLast().globalPosition();
        }
        return all.stream().filter(e -> e.streamId().equals(stream)).toList();
    }
}
