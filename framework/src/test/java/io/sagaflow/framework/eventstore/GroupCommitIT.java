package io.sagaflow.framework.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.outbox.OutboxSignal;
import io.sagaflow.framework.outbox.OutboxWriter;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.Opened;
import io.sagaflow.framework.test.postgres.TestDatabase;
import io.sagaflow.framework.test.postgres.TestPostgres;
import io.sagaflow.framework.transaction.TransientFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class GroupCommitIT {

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
    void appendsMadeWhileACommitIsInFlightCommitTogetherInOneTransaction() throws Exception {
        HeldCommits held = new HeldCommits();
        GroupCommit commits = held.commits;
        List<Integer> groups = held.groups;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<AppendResult> first = held.holdFirst(threads);
            List<StreamAppend> queued =
                    IntStream.range(0, 4).mapToObj(i -> opening("queued-" + i)).toList();
            List<Future<AppendResult>> later = new ArrayList<>();
            for (StreamAppend append : queued) {
                later.add(threads.submit(() -> commits.append(append)));
            }
            await(() -> commits.waiting() == 4);
            held.release();

            assertThat(first.get(10, TimeUnit.SECONDS).nextExpectedVersion()).isEqualTo(1);
            List<AppendResult> results = new ArrayList<>();
            for (Future<AppendResult> result : later) {
                results.add(result.get(10, TimeUnit.SECONDS));
            }
            assertThat(results)
                    .extracting(AppendResult::streamId)
                    .containsExactlyElementsOf(
                            queued.stream().map(StreamAppend::streamId).toList());
            assertThat(results)
                    .extracting(result -> result.events().getFirst().payload())
                    .containsExactlyElementsOf(
                            queued.stream().map(a -> a.events().getFirst()).toList());
            // The first append alone, at once; the four that came while it committed, as one transaction.
            assertThat(groups).containsExactly(1, 4);
            assertThat(results)
                    .extracting(result ->
                            result.events().getFirst().globalPosition().transactionId())
                    .containsOnly(results.getFirst()
                            .events()
                            .getFirst()
                            .globalPosition()
                            .transactionId());
            for (AppendResult result : results) {
                assertThat(store.readStream(result.streamId(), 1)).isEqualTo(result.events());
            }
            assertThat(commits.waiting()).isZero();
        }
    }

    @Test
    void whenTheDatabaseIsAway_theGroupAndTheAppendsQueuedBehindItFailWithIt_notEachInTurn() throws Exception {
        TestDatabase database = TestPostgres.newDatabase();
        database.migratedDataSource().close();
        try (HikariDataSource pool = database.dataSource(Duration.ofMillis(500));
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Stores away = new Stores(
                    pool,
                    new JdbcTemplate(pool),
                    new TransactionTemplate(new DataSourceTransactionManager(pool)),
                    stores.serializer());
            HeldStore held = new HeldStore(away.eventStore());
            GroupCommit commits = new GroupCommit(held, 64, size -> {});
            List<Future<AppendResult>> appends = new ArrayList<>();
            appends.add(threads.submit(() -> commits.append(opening("first"))));
            assertThat(held.entered.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 8; i++) {
                StreamAppend append = opening("queued-" + i);
                appends.add(threads.submit(() -> commits.append(append)));
            }
            await(() -> commits.waiting() == 8);
            database.admitConnections(false);
            held.release.countDown();

            for (Future<AppendResult> append : appends) {
                assertThatThrownBy(() -> append.get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .satisfies(failure -> assertThat(TransientFailures.isTransient(failure.getCause()))
                                .isTrue());
            }
            // Only the first append went to the database: each of the eight behind it would have waited for a
            // connection in turn, as a group and then one by one.
            assertThat(held.calls).hasValue(1);
            assertThat(commits.waiting()).isZero();

            database.admitConnections(true);
            assertThat(commits.append(opening("back")).nextExpectedVersion()).isEqualTo(1);
        }
    }

    @Test
    void anAppendAtFaultFailsAloneAndTheRestOfItsGroupIsCommitted() throws Exception {
        String taken = "counter-" + UUID.randomUUID();
        store.append(taken, ExpectedVersion.noStream(), List.of(new Opened("taken", 5)), EventMetadata.newFlow());
        HeldCommits held = new HeldCommits();
        GroupCommit commits = held.commits;
        List<Integer> groups = held.groups;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<AppendResult> first = held.holdFirst(threads);
            StreamAppend before = opening("before");
            StreamAppend conflicting = new StreamAppend(
                    taken, ExpectedVersion.noStream(), List.of(new Opened("again", 5)), EventMetadata.newFlow());
            StreamAppend after = opening("after");
            Future<AppendResult> beforeResult = threads.submit(() -> commits.append(before));
            await(() -> commits.waiting() == 1);
            Future<AppendResult> conflictResult = threads.submit(() -> commits.append(conflicting));
            await(() -> commits.waiting() == 2);
            Future<AppendResult> afterResult = threads.submit(() -> commits.append(after));
            await(() -> commits.waiting() == 3);
            held.release();

            first.get(10, TimeUnit.SECONDS);
            assertThat(beforeResult.get(10, TimeUnit.SECONDS).nextExpectedVersion())
                    .isEqualTo(1);
            assertThat(afterResult.get(10, TimeUnit.SECONDS).nextExpectedVersion())
                    .isEqualTo(1);
            assertThatThrownBy(() -> conflictResult.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ConcurrencyConflictException.class);
            assertThat(groups).containsExactly(1, 3);
            assertThat(store.readStream(before.streamId(), 1)).hasSize(1);
            assertThat(store.readStream(after.streamId(), 1)).hasSize(1);
            assertThat(store.readStream(taken, 1))
                    .extracting(EventEnvelope::payload)
                    .containsExactly(new Opened("taken", 5));
            // Nothing twice: the group's rolled-back attempt left no outbox rows behind.
            assertThat(stores.jdbc()
                            .queryForObject(
                                    "select count(*) from outbox where stream_id in (?, ?)",
                                    Integer.class,
                                    before.streamId(),
                                    after.streamId()))
                    .isEqualTo(2);
        }
    }

    @Test
    void manyThreadsAppendingAtOnceEachGetTheirOwnCommittedAppend() throws Exception {
        List<Integer> groups = new CopyOnWriteArrayList<>();
        GroupCommit commits = new GroupCommit(store, 8, groups::add);
        List<StreamAppend> appends = IntStream.range(0, 400)
                .mapToObj(i -> new StreamAppend(
                        "counter-" + UUID.randomUUID(),
                        ExpectedVersion.noStream(),
                        List.of(new Opened("c" + i, 5), new Incremented(i)),
                        EventMetadata.newFlow()))
                .toList();
        List<Future<AppendResult>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (StreamAppend append : appends) {
                results.add(threads.submit(() -> commits.append(append)));
            }
            for (int i = 0; i < appends.size(); i++) {
                AppendResult result = results.get(i).get(30, TimeUnit.SECONDS);
                assertThat(result.streamId()).isEqualTo(appends.get(i).streamId());
                assertThat(result.events())
                        .extracting(EventEnvelope::payload)
                        .containsExactlyElementsOf(appends.get(i).events());
            }
        }
        assertThat(groups.stream().mapToInt(Integer::intValue).sum()).isEqualTo(appends.size());
        assertThat(groups).allSatisfy(size -> assertThat(size).isBetween(1, 8));
        Map<String, List<EventEnvelope<Object>>> stored =
                store.readStreams(appends.stream().map(StreamAppend::streamId).toList());
        assertThat(stored.values())
                .allSatisfy(events ->
                        assertThat(events).extracting(EventEnvelope::version).containsExactly(1L, 2L));
    }

    @Test
    void refusesToRunInsideATransaction() {
        GroupCommit commits = new GroupCommit(store, 8, size -> {});
        assertThatThrownBy(() -> stores.transactions().executeWithoutResult(status -> commits.append(opening("in"))))
                .isInstanceOf(IllegalStateException.class);
    }

    private static StreamAppend opening(String name) {
        return new StreamAppend(
                "counter-" + UUID.randomUUID(),
                ExpectedVersion.noStream(),
                List.of(new Opened(name, 5)),
                EventMetadata.newFlow());
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in 10 s");
            }
            Thread.sleep(5);
        }
    }

    /** A group commit over a {@link HeldStore}. */
    private static final class HeldCommits {

        final HeldStore store = new HeldStore(GroupCommitIT.store);
        final List<Integer> groups = new CopyOnWriteArrayList<>();
        final GroupCommit commits = new GroupCommit(store, 64, groups::add);

        /** Makes a first append, which commits alone and stays in flight until {@link #release}. */
        Future<AppendResult> holdFirst(ExecutorService threads) throws InterruptedException {
            Future<AppendResult> first = threads.submit(() -> commits.append(opening("first")));
            assertThat(store.entered.await(10, TimeUnit.SECONDS)).isTrue();
            return first;
        }

        void release() {
            store.release.countDown();
        }
    }

    /** The store, whose first {@code appendAll} waits until released: a commit held in flight. */
    private static final class HeldStore implements EventStore {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();
        private final EventStore store;

        HeldStore(EventStore store) {
            this.store = store;
        }

        @Override
        public List<AppendResult> appendAll(List<StreamAppend> appends) {
            calls.incrementAndGet();
            if (entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return store.appendAll(appends);
        }

        @Override
        public AppendResult append(String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata) {
            return store.append(streamId, expected, events, metadata);
        }

        @Override
        public List<EventEnvelope<Object>> readStream(String streamId, long fromVersion) {
            return store.readStream(streamId, fromVersion);
        }

        @Override
        public Map<String, List<EventEnvelope<Object>>> readStreams(Collection<String> streamIds) {
            return store.readStreams(streamIds);
        }

        @Override
        public Map<String, List<EventEnvelope<Object>>> readStreamsAfter(Map<String, Long> afterVersions) {
            return store.readStreamsAfter(afterVersions);
        }

        @Override
        public List<EventEnvelope<Object>> readAll(GlobalPosition after, int limit) {
            return store.readAll(after, limit);
        }

        @Override
        public long currentVersion(String streamId) {
            return store.currentVersion(streamId);
        }
    }
}
