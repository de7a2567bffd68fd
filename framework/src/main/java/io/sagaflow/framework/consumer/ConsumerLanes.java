package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.EventMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads of one batching consumer (ADR 0021). The topic listeners only queue each message; a lane takes
 * whatever has queued up, up to the batch size, and hands it over as one batch, so the batches grow with the load:
 * one message when it is quiet, dozens when it is busy. All messages of a topic go to the same lane, so a topic's
 * (and therefore a stream's) messages are handled in the order they were published. A full lane holds its listeners
 * back.
 *
 * <p>A topic may carry event types a consumer skips (ADR 0036 keeps our own contracts free of them); those still pass
 * through the lane, so that its checkpoints move past them in order, but only the consumed ones count towards the
 * batch size (ADR 0031). Otherwise a consumer of one type in four would handle a quarter of its batch size per
 * transaction.
 */
final class ConsumerLanes {

    private static final Logger log = LoggerFactory.getLogger(ConsumerLanes.class);
    private static final Duration IDLE_POLL = Duration.ofMillis(500);
    /** Deliveries a lane holds per message of its batch size: room for a batch when most messages are skipped. */
    private static final int QUEUED_PER_BATCHED = 16;

    /**
     * A message as a lane carries it: with its topic and the checkpoint past it, to remember once it is handled, and
     * whether the consumer handles it or only moves its checkpoint past it.
     */
    record Delivery(EventMessage message, String topic, Checkpoint after, boolean consumed) {}

    private final List<Lane> lanes;

    ConsumerLanes(String consumer, int laneCount, int batchSize, Consumer<List<Delivery>> batchHandler) {
        if (laneCount < 1 || batchSize < 1) {
            throw new IllegalArgumentException("lanes and batch size must be >= 1");
        }
        List<Lane> created = new ArrayList<>(laneCount);
        for (int i = 0; i < laneCount; i++) {
            created.add(new Lane(consumer + "-" + i, batchSize, batchHandler));
        }
        this.lanes = List.copyOf(created);
        lanes.forEach(Lane::start);
    }

    /** Queues {@code delivery} on its topic's lane; waits while that lane is full. */
    void enqueue(Delivery delivery) {
        lanes.get(Math.floorMod(delivery.topic().hashCode(), lanes.size())).enqueue(delivery);
    }

    /** Stops taking new batches, lets the batch in hand finish and drops what is still queued (it is redelivered). */
    void stop() {
        lanes.forEach(Lane::stop);
    }

    private static final class Lane implements Runnable {

        private final String name;
        private final int batchSize;
        private final BlockingQueue<Delivery> queue;
        private final Consumer<List<Delivery>> batchHandler;
        private final Thread thread;
        private volatile boolean running = true;

        Lane(String name, int batchSize, Consumer<List<Delivery>> batchHandler) {
            this.name = name;
            this.batchSize = batchSize;
            this.queue = new ArrayBlockingQueue<>(batchSize * QUEUED_PER_BATCHED);
            this.batchHandler = batchHandler;
            this.thread = Thread.ofPlatform().name("consumer-" + name).daemon().unstarted(this);
        }

        void start() {
            thread.start();
        }

        void enqueue(Delivery delivery) {
            try {
                while (running && !queue.offer(delivery, IDLE_POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                    // full: the lane is behind; holding the listener back is the back-pressure
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            List<Delivery> batch = new ArrayList<>(batchSize);
            while (running) {
                try {
                    Delivery first = queue.poll(IDLE_POLL.toMillis(), TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                    int consumed = first.consumed() ? 1 : 0;
                    for (Delivery next; consumed < batchSize && (next = queue.poll()) != null; ) {
                        batch.add(next);
                        consumed += next.consumed() ? 1 : 0;
                    }
                    batchHandler.accept(batch);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    // The handler deals with failures of its own, so this is a bug. Later batches checkpoint past this
                    // one, so its messages come again only if the service restarts before those checkpoints are
                    // written.
                    log.error("consumer lane {} dropped a batch of {} messages", name, batch.size(), e);
                } finally {
                    batch.clear();
                }
            }
        }

        void stop() {
            running = false;
            try {
                thread.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            queue.clear();
        }
    }
}
