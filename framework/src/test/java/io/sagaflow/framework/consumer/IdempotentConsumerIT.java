package io.sagaflow.framework.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.sample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IdempotentConsumerIT {

    private static Stores stores;
    private static IdempotentConsumer consumer;

    @BeforeAll
    static void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        stores.jdbc().execute("create table effect (consumer text, event_id uuid)");
        consumer = new IdempotentConsumer(stores.jdbc(), stores.transactions());
    }

    @AfterAll
    static void tearDown() {
        stores.close();
    }

    @Test
    void aDuplicateDeliveryHasOneEffect() {
        UUID event = UUID.randomUUID();
        assertThat(consumer.process("inventory", event, effect("inventory", event)))
                .isTrue();
        assertThat(consumer.process("inventory", event, effect("inventory", event)))
                .isFalse();
        assertThat(effects("inventory", event)).isEqualTo(1);
    }

    @Test
    void twoConsumersOfOneEventBothProcessIt() {
        UUID event = UUID.randomUUID();
        assertThat(consumer.process("inventory", event, effect("inventory", event)))
                .isTrue();
        assertThat(consumer.process("payment", event, effect("payment", event))).isTrue();
        assertThat(effects("inventory", event)).isEqualTo(1);
        assertThat(effects("payment", event)).isEqualTo(1);
    }

    @Test
    void concurrentDuplicateDeliveriesHaveOneEffect() throws Exception {
        UUID event = UUID.randomUUID();
        int deliveries = 8;
        ExecutorService pool = Executors.newFixedThreadPool(deliveries);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> applied = new ArrayList<>();
            for (int i = 0; i < deliveries; i++) {
                applied.add(pool.submit(() -> {
                    start.await();
                    return consumer.process("order", event, effect("order", event));
                }));
            }
            start.countDown();
            int wins = 0;
            for (Future<Boolean> outcome : applied) {
                wins += outcome.get() ? 1 : 0;
            }
            assertThat(wins).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(effects("order", event)).isEqualTo(1);
    }

    @Test
    void aFailedEffectLeavesNoRecordSoTheRedeliveryApplies() {
        UUID event = UUID.randomUUID();
        assertThatThrownBy(() -> consumer.process("inventory", event, () -> {
                    effect("inventory", event).run();
                    throw new IllegalStateException("handler failed after writing");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(effects("inventory", event)).isZero();
        assertThat(consumer.hasProcessed("inventory", event)).isFalse();

        assertThat(consumer.process("inventory", event, effect("inventory", event)))
                .isTrue();
        assertThat(effects("inventory", event)).isEqualTo(1);
    }

    @Test
    void aBatchHandlesEachNewEventOnceInOneTransactionAndSkipsTheProcessedOnes() {
        UUID before = UUID.randomUUID();
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        consumer.process("batching", before, effect("batching", before));
        List<Long> transactions = new CopyOnWriteArrayList<>();

        Set<UUID> applied = consumer.processBatch(
                "batching", List.of(event(first), event(before), event(second), event(first)), event -> {
                    transactions.add(stores.jdbc().queryForObject("select txid_current()", Long.class));
                    effect("batching", event.eventId()).run();
                });

        assertThat(applied).containsExactlyInAnyOrder(first, second);
        assertThat(transactions).hasSize(2).containsOnly(transactions.getFirst());
        assertThat(List.of(effects("batching", before), effects("batching", first), effects("batching", second)))
                .containsOnly(1);
        assertThat(consumer.processBatch("batching", List.of(event(first), event(second)), event -> {}))
                .isEmpty();
    }

    @Test
    void aFailingHandlerLeavesNothingOfItsBatch() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        assertThatThrownBy(() -> consumer.processBatch("failing", List.of(event(first), event(second)), event -> {
                    effect("failing", event.eventId()).run();
                    if (event.eventId().equals(second)) {
                        throw new IllegalStateException("handler failed after writing");
                    }
                }))
                .isInstanceOf(IllegalStateException.class);

        assertThat(effects("failing", first)).isZero();
        assertThat(consumer.hasProcessed("failing", first)).isFalse();
        assertThat(consumer.hasProcessed("failing", second)).isFalse();
    }

    @Test
    void batchesRacingOverTheSameEventsInOppositeOrdersApplyEachOnceWithoutDeadlock() throws Exception {
        List<EventEnvelope<Object>> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            events.add(event(UUID.randomUUID()));
        }
        List<EventEnvelope<Object>> reversed = new ArrayList<>(events.reversed());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Set<UUID>>> outcomes = new ArrayList<>();
            for (List<EventEnvelope<Object>> batch : List.of(events, reversed)) {
                outcomes.add(pool.submit(() -> {
                    start.await();
                    return consumer.processBatch("racing", batch, event -> {
                        effect("racing", event.eventId()).run();
                        // Hold the records a while, so the other batch runs into them.
                        stores.jdbc().execute("select pg_sleep(0.002)");
                    });
                }));
            }
            start.countDown();
            int applied = outcomes.get(0).get().size() + outcomes.get(1).get().size();
            assertThat(applied).isEqualTo(events.size());
        } finally {
            pool.shutdownNow();
        }
        for (EventEnvelope<Object> event : events) {
            assertThat(effects("racing", event.eventId())).isEqualTo(1);
        }
    }

    @Test
    void prunesRecordsOlderThanTheRetentionOnly() {
        UUID old = UUID.randomUUID();
        UUID recent = UUID.randomUUID();
        consumer.process("pruning", old, () -> {});
        consumer.process("pruning", recent, () -> {});
        stores.jdbc()
                .update(
                        "update consumer_processed_event set processed_at = now() - interval '2 days'"
                                + " where consumer = 'pruning' and event_id = ?",
                        old);

        assertThat(consumer.prune(Duration.ofDays(1), 1)).isGreaterThanOrEqualTo(1);
        assertThat(consumer.hasProcessed("pruning", old)).isFalse();
        assertThat(consumer.hasProcessed("pruning", recent)).isTrue();
    }

    private static EventEnvelope<Object> event(UUID id) {
        return new EventEnvelope<>(
                id,
                "counter-1",
                1,
                GlobalPosition.START,
                "CounterOpened",
                1,
                Instant.now(),
                "c",
                null,
                null,
                null,
                new Counter.Opened("c", 1));
    }

    private static Runnable effect(String name, UUID event) {
        return () -> stores.jdbc().update("insert into effect (consumer, event_id) values (?, ?)", name, event);
    }

    private static int effects(String name, UUID event) {
        return stores.jdbc()
                .queryForObject(
                        "select count(*) from effect where consumer = ? and event_id = ?", Integer.class, name, event);
    }
}
