package io.sagaflow.order.fulfilment.adapter.hazelcast;

import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The thread one saga processor of the {@link SagaJob} hands its batches to (ADR 0034). A batch blocks on PostgreSQL
 * for its whole transaction, so it must not run on a cooperative Jet thread; and a non-cooperative Jet processor owns a
 * Jet thread that never blocks when it has nothing to do, but wakes every few milliseconds to look for work. A lane's
 * thread waits on its queue instead, and costs nothing while no saga message comes.
 *
 * <p>Batches run one after the other, in the order the processor submitted them: an order's messages all reach the same
 * processor, so they are still handled one at a time and in order, even when Jet has a second batch in flight.
 */
public final class SagaLane implements AutoCloseable {

    /** How long closing waits for the batch in hand, so a restarted job never handles an order beside it. */
    private static final long CLOSE_WAIT_SECONDS = 60;

    private final SagaRunner runner;
    private final ExecutorService thread;

    SagaLane(SagaRunner runner, String name) {
        this.runner = runner;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread lane = new Thread(task, name);
            lane.setDaemon(true);
            return lane;
        });
    }

    /** Handles {@code batch} on the lane's thread after the batches submitted before it. */
    CompletableFuture<List<Object>> handle(List<SagaRunner.Delivery> batch) {
        return CompletableFuture.supplyAsync(() -> List.copyOf(runner.handleBatch(batch)), thread);
    }

    /** Takes no more batches and waits for the one in hand. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.shutdownNow();
        }
    }
}
