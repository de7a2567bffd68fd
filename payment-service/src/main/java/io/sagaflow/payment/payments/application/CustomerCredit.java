package io.sagaflow.payment.payments.application;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * The customers' credit rows. Locking a row is what makes the credit check atomic per customer: every transaction
 * that authorises or refunds a payment of the customer locks it first, so they take turns, and each sees the total
 * the previous one committed.
 */
public interface CustomerCredit {

    /**
     * Locks {@code customerId}'s credit row until the current transaction ends (creating it if the customer has none
     * yet) and returns their outstanding total: captured minus refunded over all their payments. Call it inside a
     * transaction, before any other lock of the same work (lock order: order, customer, payment stream).
     */
    BigDecimal lockOutstanding(UUID customerId);

    /**
     * Locks the credit rows of {@code customerIds} as {@link #lockOutstanding(UUID)} does, all in one statement and in
     * one order (so two callers never deadlock on them), and returns each customer's outstanding total.
     */
    Map<UUID, BigDecimal> lockOutstanding(Collection<UUID> customerIds);
}
