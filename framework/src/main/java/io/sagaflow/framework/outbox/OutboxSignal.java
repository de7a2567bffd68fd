package io.sagaflow.framework.outbox;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes relays as soon as a transaction that wrote outbox rows commits, instead of leaving the rows to their next
 * poll: the relays that hold a bucket the transaction wrote to, this replica's directly and other replicas' through
 * {@link RelayWakeups} (ADR 0035).
 */
public final class OutboxSignal {

    private final Semaphore permits = new Semaphore(0);
    private volatile RelayWakeups remote;

    /** Wakes this replica's relay (idempotent until it wakes). */
    public void signal() {
        if (permits.availablePermits() == 0) {
            permits.release();
        }
    }

    /**
     * After a commit that wrote rows into {@code buckets}: wakes every relay that holds one of them, this replica's
     * only if it does (or no relay told us yet who holds what), since a relay polls only its own buckets.
     */
    public void committed(BitSet buckets) {
        RelayWakeups wakeups = remote;
        if (wakeups == null || wakeups.wakeHoldersOf(buckets)) {
            signal();
        }
    }

    /** Waits for a signal or {@code timeout}, whichever comes first; returns whether it was signalled. */
    boolean await(Duration timeout) throws InterruptedException {
        if (permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            permits.drainPermits();
            return true;
        }
        return false;
    }

    /** Routes the wake-ups for buckets that other replicas hold through {@code wakeups}; {@code null} stops that. */
    void connect(RelayWakeups wakeups) {
        this.remote = wakeups;
    }
}
