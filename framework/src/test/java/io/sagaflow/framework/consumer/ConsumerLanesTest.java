package io.sagaflow.framework.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.consumer.ConsumerLanes.Delivery;
import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.EventMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConsumerLanesTest {

    private static final String TOPIC = "sagaflow.events.order.0";

    private final CountDownLatch firstBatchHeld = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final BlockingQueue<List<Delivery>> batches = new LinkedBlockingQueue<>();
    private ConsumerLanes lanes;

    @AfterEach
    void stop() {
        release.countDown();
        if (lanes != null) {
            lanes.stop();
        }
    }

    @Test
    void aBatchHoldsUpToTheBatchSizeOfConsumedMessagesAndTheSkippedOnesBetweenThemInOrder() throws Exception {
        lanes = new ConsumerLanes("test", 1, 3, this::holdTheFirstBatch);
        lanes.enqueue(delivery(0, true));
        assertThat(firstBatchHeld.await(10, TimeUnit.SECONDS)).isTrue();
        // Queued while the lane is busy: skipped and consumed messages interleaved, as a publisher's topic carries
        // them.
        boolean[] consumed = {false, true, false, false, true, false, true, true, false};
        for (int i = 0; i < consumed.length; i++) {
            lanes.enqueue(delivery(i + 1, consumed[i]));
        }
        release.countDown();

        assertThat(sequences(batches.poll(10, TimeUnit.SECONDS))).containsExactly(0L);
        // Three consumed messages (2, 5 and 7) and the three skipped ones among them; 8 would be a fourth.
        assertThat(sequences(batches.poll(10, TimeUnit.SECONDS))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(sequences(batches.poll(10, TimeUnit.SECONDS))).containsExactly(8L, 9L);
    }

    @Test
    void aLaneHoldsManyMoreSkippedMessagesThanItsBatchSizeBeforeItHoldsItsListenerBack() throws Exception {
        lanes = new ConsumerLanes("test", 1, 2, this::holdTheFirstBatch);
        lanes.enqueue(delivery(0, true));
        assertThat(firstBatchHeld.await(10, TimeUnit.SECONDS)).isTrue();
        // A consumer of one event type in four or more: its queue takes fifteen skipped messages for each consumed one.
        CompletableFuture<Void> listener = CompletableFuture.runAsync(() -> {
            for (int i = 1; i <= 30; i++) {
                lanes.enqueue(delivery(i, i % 15 == 0));
            }
        });
        assertThat(listener).as("queued while the lane is busy").succeedsWithin(Duration.ofSeconds(10));
        release.countDown();

        assertThat(sequences(batches.poll(10, TimeUnit.SECONDS))).containsExactly(0L);
        assertThat(batches.poll(10, TimeUnit.SECONDS)).hasSize(30);
    }

    private void holdTheFirstBatch(List<Delivery> batch) {
        batches.add(List.copyOf(batch));
        if (firstBatchHeld.getCount() > 0) {
            firstBatchHeld.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static List<Long> sequences(List<Delivery> batch) {
        assertThat(batch).as("a batch within 10 s").isNotNull();
        return batch.stream().map(delivery -> delivery.after().sequence() - 1).toList();
    }

    private static Delivery delivery(long sequence, boolean consumed) {
        EventMessage message = new EventMessage(
                "event-" + sequence,
                "order-service",
                "order-1",
                sequence,
                consumed ? "OrderPlaced" : "OrderConfirmed",
                1,
                0,
                "correlation",
                null,
                null,
                null,
                "{}");
        return new Delivery(message, TOPIC, new Checkpoint(sequence + 1, 1_000 + sequence), consumed);
    }
}
