package io.sagaflow.framework.autoconfigure;

import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.consumer.IdempotentConsumer;
import io.sagaflow.framework.eventstore.IdempotencyKeys;
import io.sagaflow.framework.transaction.TransientFailures;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Writes consumer checkpoints every second, prunes old processed-event records and expired idempotency keys, on one
 * daemon thread. Every replica prunes; two pruning at once delete different rows or wait for each other.
 */
final class Housekeeping implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);

    private final EventSubscriber subscriber;
    private final IdempotentConsumer idempotent;
    private final SagaflowConsumerProperties properties;
    private final IdempotencyKeys idempotencyKeys;
    private final SagaflowIdempotencyProperties idempotency;
    private ScheduledExecutorService scheduler;

    Housekeeping(
            EventSubscriber subscriber,
            IdempotentConsumer idempotent,
            SagaflowConsumerProperties properties,
            IdempotencyKeys idempotencyKeys,
            SagaflowIdempotencyProperties idempotency) {
        this.subscriber = subscriber;
        this.idempotent = idempotent;
        this.properties = properties;
        this.idempotencyKeys = idempotencyKeys;
        this.idempotency = idempotency;
    }

    @Override
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("housekeeping").daemon().factory());
        long checkpointMillis = properties.getCheckpointInterval().toMillis();
        scheduler.scheduleWithFixedDelay(
                () -> guarded("checkpoint flush", subscriber::flushCheckpoints),
                checkpointMillis,
                checkpointMillis,
                TimeUnit.MILLISECONDS);
        long pruneMillis = properties.getPruneInterval().toMillis();
        scheduler.scheduleWithFixedDelay(
                () -> guarded(
                        "processed-event pruning", () -> idempotent.prune(properties.getProcessedRetention(), 10_000)),
                pruneMillis,
                pruneMillis,
                TimeUnit.MILLISECONDS);
        long keyPruneMillis = idempotency.pruneInterval().toMillis();
        scheduler.scheduleWithFixedDelay(
                () -> guarded("idempotency-key pruning", () -> idempotencyKeys.prune(idempotency.retention(), 10_000)),
                keyPruneMillis,
                keyPruneMillis,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
            guarded("final checkpoint flush", subscriber::flushCheckpoints);
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            if (TransientFailures.isTransient(e)) {
                log.warn("{} failed: {}", what, e.toString()); // the database away: no stack trace (ADR 0102)
            } else {
                log.warn("{} failed", what, e);
            }
        }
    }
}
