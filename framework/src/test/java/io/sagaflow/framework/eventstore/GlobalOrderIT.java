package io.sagaflow.framework.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.Opened;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The global order never lets an event appear behind a position a reader has passed, even when a transaction that
 * took a lower sequence number commits after one that took a higher one (ADR 0002).
 */
class GlobalOrderIT {

    private Stores stores;
    private JdbcEventStore store;

    @BeforeEach
    void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        store = stores.eventStore();
    }

    @AfterEach
    void tearDown() {
        stores.close();
    }

    @Test
    void aLowerSequenceCommittedLaterIsStillReadAndNothingIsSkipped() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch slowAppended = new CountDownLatch(1);
            CountDownLatch releaseSlow = new CountDownLatch(1);
            // The slow writer takes the lower sequence number first, then holds its transaction open.
            Future<?> slow = pool.submit(() -> stores.transactions().executeWithoutResult(status -> {
                store.append(
                        "slow-1", ExpectedVersion.noStream(), List.of(new Opened("slow", 1)), EventMetadata.newFlow());
                slowAppended.countDown();
                await(releaseSlow);
            }));
            assertThat(slowAppended.await(10, TimeUnit.SECONDS)).isTrue();
            // The fast writer takes a higher sequence and commits first.
            store.append("fast-1", ExpectedVersion.noStream(), List.of(new Opened("fast", 1)), EventMetadata.newFlow());
            long fastSequence =
                    store.readStream("fast-1", 1).getFirst().globalPosition().sequence();

            // A reader now must not pass the fast event while the slow one can still commit below it.
            List<EventEnvelope<Object>> whileSlowRuns = store.readAll(GlobalPosition.START, 100);
            assertThat(whileSlowRuns).isEmpty();

            releaseSlow.countDown();
            slow.get(10, TimeUnit.SECONDS);

            List<EventEnvelope<Object>> afterCommit = store.readAll(GlobalPosition.START, 100);
            assertThat(afterCommit).extracting(EventEnvelope::streamId).containsExactly("slow-1", "fast-1");
            assertThat(afterCommit.getFirst().globalPosition().sequence()).isLessThan(fastSequence);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTailingReaderSeesEveryEventOfConcurrentRandomlyDelayedWritersExactlyOnceInOrder() throws Exception {
        int writers = 6;
        int appendsPerWriter = 60;
        TransactionTemplate transactions = stores.transactions();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            Future<List<EventEnvelope<Object>>> reader = pool.submit(() -> {
                List<EventEnvelope<Object>> seen = new ArrayList<>();
                GlobalPosition position = GlobalPosition.START;
                boolean lastPass = false;
                while (true) {
                    List<EventEnvelope<Object>> page = store.readAll(position, 50);
                    if (!page.isEmpty()) {
                        seen.addAll(page);
                        position = page.getLast().globalPosition();
                    } else if (lastPass) {
                        return seen;
                    } else if (!writing.get()) {
                        lastPass = true;
                    }
                }
            });
            List<Future<?>> appends = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                appends.add(pool.submit(() -> {
                    for (int i = 0; i < appendsPerWriter; i++) {
                        String stream = "w" + writer + "-" + i;
                        transactions.executeWithoutResult(status -> {
                            store.append(
                                    stream,
                                    ExpectedVersion.noStream(),
                                    List.of(new Opened(stream, 10), new Incremented(1)),
                                    EventMetadata.newFlow());
                            // Hold the transaction open for a random while so commits interleave out of order.
                            sleepMicros(ThreadLocalRandom.current().nextInt(0, 3_000));
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> append : appends) {
                append.get(2, TimeUnit.MINUTES);
            }
            writing.set(false);
            List<EventEnvelope<Object>> seen = reader.get(1, TimeUnit.MINUTES);

            assertThat(seen).hasSize(writers * appendsPerWriter * 2);
            Set<UUID> ids = new HashSet<>();
            seen.forEach(event -> ids.add(event.eventId()));
            assertThat(ids).as("no event seen twice").hasSize(seen.size());
            for (int i = 1; i < seen.size(); i++) {
                assertThat(seen.get(i).globalPosition())
                        .isGreaterThan(seen.get(i - 1).globalPosition());
            }
            // The tailing reader's order is the order of a full read afterwards: nothing arrived behind it.
            assertThat(store.readAll(GlobalPosition.START, 10_000))
                    .extracting(EventEnvelope::eventId)
                    .containsExactlyElementsOf(
                            seen.stream().map(EventEnvelope::eventId).toList());
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
    }

    @Test
    void ordersTransactionIdsAsNumbersAcrossAPowerOfTen() {
        store.append("before", ExpectedVersion.noStream(), List.of(new Opened("before", 1)), EventMetadata.newFlow());
        long txid = store.readStream("before", 1).getFirst().globalPosition().transactionId();
        long nextPowerOfTen = (long) Math.pow(10, Long.toString(txid).length());
        // Each statement outside a transaction template is its own transaction and takes the next id.
        while (stores.jdbc().queryForObject("select pg_current_xact_id()::text::bigint", Long.class) < nextPowerOfTen) {
            // burn transaction ids until they gain a digit
        }
        store.append("after", ExpectedVersion.noStream(), List.of(new Opened("after", 1)), EventMetadata.newFlow());

        assertThat(store.readAll(GlobalPosition.START, 10))
                .extracting(EventEnvelope::streamId)
                .containsExactly("before", "after");
        assertThat(store.readAll(store.readStream("before", 1).getFirst().globalPosition(), 10))
                .extracting(EventEnvelope::streamId)
                .containsExactly("after");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepMicros(int micros) {
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
