package io.sagaflow.payment.ordersaga.application;

import java.util.Collection;
import java.util.UUID;

/**
 * Serialises the handling of one order's saga requests across threads and replicas: a payment request and a refund
 * request of the same order never decide side by side on what the other has not yet committed.
 */
public interface OrderLock {

    /** Takes the lock of {@code orderId} until the current transaction ends, waiting for it if need be. */
    void lockUntilCommit(UUID orderId);

    /** Takes the locks of {@code orderIds} as {@link #lockUntilCommit(UUID)} does, in one order (no deadlock). */
    void lockUntilCommit(Collection<UUID> orderIds);
}
