package io.sagaflow.framework.autoconfigure;

import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.consumer.IdempotentConsumer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Writes consumer checkpoints every second and prunes old processed-event records, on one daemon thread. */
final class ConsumerHousekeeping implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ConsumerHousekeeping.class);

    private final EventSubscriber subscriber;
    private final IdempotentConsumer idempotent;
    private final SagaflowConsumerProperties properties;
    private ScheduledExecutorService scheduler;

    ConsumerHousekeeping(
            EventSubscriber subscriber, IdempotentConsumer idempotent, SagaflowConsumerProperties properties) {
        this.subscriber = subscriber;
        this.idempotent = idempotent;
        this.properties = properties;
    }

    @Override
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("consumer-housekeeping").daemon().factory());
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
            log.warn("{} failed", what, e);
        }
    }
}
