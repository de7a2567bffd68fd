package io.sagaflow.framework.outbox;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Wakes the relay as soon as a transaction that wrote outbox rows commits, instead of waiting for its next poll. */
public final class OutboxSignal {

    private final Semaphore permits = new Semaphore(0);

    /** Wakes the relay (idempotent until it wakes). */
    public void signal() {
        if (permits.availablePermits() == 0) {
            permits.release();
        }
    }

    /** Waits for a signal or {@code timeout}, whichever comes first. */
    void await(Duration timeout) throws InterruptedException {
        if (permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            permits.drainPermits();
        }
    }
}
