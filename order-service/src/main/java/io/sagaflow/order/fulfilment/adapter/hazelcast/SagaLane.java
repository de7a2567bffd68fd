package io.sagaflow.order.fulfilment.adapter.hazelcast;

import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread one saga processor of the {@link SagaJob} hands its batches to (ADR 0034). A batch blocks on PostgreSQL
 * for its whole transaction, so it must not run on a cooperative Jet thread; and a non-cooperative Jet processor owns a
 * Jet thread that never blocks when it has nothing to do, but wakes every few milliseconds to look for work. A lane's
 * thread waits on its queue instead, and costs nothing while no saga message comes.
 *
 * <p>Batches run one after the other, in the order the processor submitted them: an order's messages all reach the same
 * processor, so they are still handled one at a time and in order, even when Jet has a second batch in flight.
 *
 * <p>A lane may start before its member's runner is registered: on a replica that joined while its application was
 * still starting, when the job restarted meanwhile. Its first batch then waits on the lane's thread for the runner,
 * and the batches after it queue behind it; the job and the other members' lanes go on (ADR 0075).
 */
public final class SagaLane implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SagaLane.class);

    /** How long closing waits for the batch in hand, so a restarted job never handles an order beside it. */
    private static final long CLOSE_WAIT_SECONDS = 60;

    /** How often a lane still waiting for its runner says so. */
    private static final long RUNNER_WAIT_WARNING_SECONDS = 30;

    private final CompletableFuture<SagaRunner> runner;
    private final String name;
    private final ExecutorService thread;

    SagaLane(CompletableFuture<SagaRunner> runner, String name) {
        this.runner = runner;
        this.name = name;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread lane = new Thread(task, name);
            lane.setDaemon(true);
            return lane;
        });
    }

    /** Handles {@code batch} on the lane's thread after the batches submitted before it. */
    CompletableFuture<List<Object>> handle(List<SagaRunner.Delivery> batch) {
        return CompletableFuture.supplyAsync(() -> List.copyOf(runner().handleBatch(batch)), thread);
    }

    private SagaRunner runner() {
        while (true) {
            try {
                return runner.get(RUNNER_WAIT_WARNING_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                log.warn("Saga lane {} still waits for its member's runner; its batches wait with it", name);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("saga lane " + name + " closed before its runner came", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("saga lane " + name + " has no runner", e.getCause());
            }
        }
    }

    /**
     * Takes no more batches and waits for the one in hand. A lane whose runner never came has none in hand: it stops at
     * once, and the job's next execution hands its batches again from its last snapshot.
     */
    @Override
    public void close() {
        if (!runner.isDone()) {
            thread.shutdownNow();
            return;
        }
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
