package io.sagaflow.framework.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.outbox.OutboxSignal;
import io.sagaflow.framework.outbox.OutboxWriter;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Opened;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Appends that carry idempotency keys (ADR 0070), on real PostgreSQL. */
class IdempotencyKeysIT {

    private static Stores stores;
    private static JdbcEventStore store;
    private static IdempotencyKeys keys;

    @BeforeAll
    static void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        store = stores.eventStore(new OutboxWriter(16, new OutboxSignal()));
        keys = new IdempotencyKeys(stores.jdbc());
    }

    @AfterAll
    static void tearDown() {
        stores.close();
    }

    @Test
    void aKeyUsedOnceRefusesASecondAppendWhichWritesNothing() {
        IdempotencyKey key = key("same request");
        StreamAppend first = opening(key);
        store.appendAll(List.of(first));
        StreamAppend again = opening(key);

        assertThatThrownBy(() -> store.appendAll(List.of(again)))
                .isInstanceOfSatisfying(IdempotencyKeyUsedException.class, used -> {
                    assertThat(used.streamId()).isEqualTo(first.streamId());
                    assertThat(used.sameRequest()).isTrue();
                    assertThat(used.key()).isEqualTo(key);
                });
        assertThat(store.currentVersion(again.streamId())).isZero();
        assertThat(outboxRowsOf(again.streamId())).isZero();
        assertThat(stores.jdbc()
                        .queryForObject(
                                "select stream_id from idempotency_key where scope = ? and key = ?",
                                String.class,
                                key.scope(),
                                key.value()))
                .isEqualTo(first.streamId());
    }

    @Test
    void theKeyWithAnotherFingerprintIsToldApartFromTheSameRequest() {
        IdempotencyKey key = key("first request");
        store.appendAll(List.of(opening(key)));

        assertThatThrownBy(() -> store.appendAll(
                        List.of(opening(new IdempotencyKey(key.scope(), key.value(), "another request")))))
                .isInstanceOfSatisfying(
                        IdempotencyKeyUsedException.class,
                        used -> assertThat(used.sameRequest()).isFalse());
    }

    @Test
    void keysAreUniqueWithinTheirScopeOnly() {
        String value = UUID.randomUUID().toString();
        store.appendAll(List.of(opening(new IdempotencyKey("orders", value, "f"))));

        AppendResult other = store.appendAll(List.of(opening(new IdempotencyKey("customers", value, "f"))))
                .getFirst();

        assertThat(other.nextExpectedVersion()).isEqualTo(1);
    }

    @Test
    void oneKeyTwiceInOneCallKeepsNothingOfTheCall() {
        IdempotencyKey key = key("twice");
        StreamAppend first = opening(key);
        StreamAppend second = opening(key);

        assertThatThrownBy(() -> store.appendAll(List.of(first, second)))
                .isInstanceOf(IdempotencyKeyUsedException.class);
        assertThat(store.currentVersion(first.streamId())).isZero();
        assertThat(store.currentVersion(second.streamId())).isZero();
        assertThat(keysNamed(key)).isZero();
    }

    @Test
    void anAppendWhoseKeyAnotherTransactionHoldsWaitsForItsOutcome() throws Exception {
        IdempotencyKey key = key("racing");
        StreamAppend held = opening(key);
        StreamAppend racing = opening(key);
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> holder = threads.submit(() -> stores.transactions().executeWithoutResult(status -> {
                store.appendAll(List.of(held));
                claimed.countDown();
                await(commit);
            }));
            assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
            Future<AppendResult> racer =
                    threads.submit(() -> store.appendAll(List.of(racing)).getFirst());
            // The racer waits on the key's row while the holder's transaction is open.
            awaitAnAppendWaitingForALock();
            assertThat(racer.isDone()).isFalse();
            commit.countDown();
            holder.get(10, TimeUnit.SECONDS);

            assertThatThrownBy(() -> racer.get(10, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOfSatisfying(
                            IdempotencyKeyUsedException.class,
                            used -> assertThat(used.streamId()).isEqualTo(held.streamId()));
        }
        assertThat(store.currentVersion(held.streamId())).isEqualTo(1);
        assertThat(store.currentVersion(racing.streamId())).isZero();
    }

    @Test
    void whenTheTransactionHoldingTheKeyRollsBackTheWaitingAppendTakesIt() throws Exception {
        IdempotencyKey key = key("rolled back");
        StreamAppend rolledBack = opening(key);
        StreamAppend waiting = opening(key);
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch rollBack = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> holder = threads.submit(() -> stores.transactions().executeWithoutResult(status -> {
                store.appendAll(List.of(rolledBack));
                claimed.countDown();
                await(rollBack);
                status.setRollbackOnly();
            }));
            assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
            Future<AppendResult> waiter =
                    threads.submit(() -> store.appendAll(List.of(waiting)).getFirst());
            awaitAnAppendWaitingForALock();
            assertThat(waiter.isDone()).isFalse();
            rollBack.countDown();
            holder.get(10, TimeUnit.SECONDS);

            assertThat(waiter.get(10, TimeUnit.SECONDS).nextExpectedVersion()).isEqualTo(1);
        }
        assertThat(store.currentVersion(rolledBack.streamId())).isZero();
    }

    @Test
    void aGroupCommitRefusesOnlyTheAppendWhoseKeyWasUsed() throws Exception {
        IdempotencyKey used = key("placed before");
        store.appendAll(List.of(opening(used)));
        GroupCommit commits = new GroupCommit(store, 16, size -> {});
        List<StreamAppend> appends = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            appends.add(i == 6 ? opening(used) : opening(key("fresh " + i)));
        }
        List<Future<AppendResult>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (StreamAppend append : appends) {
                results.add(threads.submit(() -> commits.append(append)));
            }
            for (int i = 0; i < appends.size(); i++) {
                Future<AppendResult> result = results.get(i);
                if (i == 6) {
                    assertThatThrownBy(() -> result.get(30, TimeUnit.SECONDS))
                            .cause()
                            .isInstanceOf(IdempotencyKeyUsedException.class);
                } else {
                    assertThat(result.get(30, TimeUnit.SECONDS).nextExpectedVersion())
                            .isEqualTo(1);
                }
            }
        }
        assertThat(store.currentVersion(appends.get(6).streamId())).isZero();
    }

    @Test
    void pruningDeletesOnlyTheKeysOlderThanTheRetention() {
        IdempotencyKey old = key("old");
        IdempotencyKey recent = key("recent");
        store.appendAll(List.of(opening(old), opening(recent)));
        stores.jdbc()
                .update(
                        "update idempotency_key set created_at = now() - interval '25 hours' where key = ?",
                        old.value());

        assertThat(keys.prune(Duration.ofHours(24), 1)).isGreaterThanOrEqualTo(1);

        assertThat(keysNamed(old)).isZero();
        assertThat(keysNamed(recent)).isEqualTo(1);
        // Gone, the key is free again: a request made after the retention is carried out anew.
        assertThat(store.appendAll(List.of(opening(old))).getFirst().nextExpectedVersion())
                .isEqualTo(1);
    }

    private static IdempotencyKey key(String request) {
        return new IdempotencyKey("counters", UUID.randomUUID().toString(), request);
    }

    private static StreamAppend opening(IdempotencyKey key) {
        return new StreamAppend(
                "counter-" + UUID.randomUUID(),
                ExpectedVersion.noStream(),
                List.of(new Opened("c", 5)),
                EventMetadata.newFlow(),
                key);
    }

    private static int keysNamed(IdempotencyKey key) {
        return stores.jdbc()
                .queryForObject(
                        "select count(*) from idempotency_key where scope = ? and key = ?",
                        Integer.class,
                        key.scope(),
                        key.value());
    }

    private static int outboxRowsOf(String streamId) {
        return stores.jdbc().queryForObject("select count(*) from outbox where stream_id = ?", Integer.class, streamId);
    }

    /** Until PostgreSQL shows a backend of this database blocked on a lock while it claims an idempotency key. */
    private static void awaitAnAppendWaitingForALock() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stores.jdbc()
                        .queryForObject(
                                "select count(*) from pg_stat_activity where datname = current_database()"
                                        + " and wait_event_type = 'Lock' and query like '%idempotency_key%'",
                                Integer.class)
                == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no append waited for the key's lock in 10 s");
            }
            Thread.sleep(10);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("not released in 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
