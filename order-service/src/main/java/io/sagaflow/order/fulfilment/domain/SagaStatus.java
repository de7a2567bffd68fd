package io.sagaflow.order.fulfilment.domain;

/** Where an order fulfilment saga stands. */
public enum SagaStatus {
    /** Step 2: waiting for inventory to reserve every line. */
    RESERVING_STOCK,
    /** Step 3: stock reserved, waiting for payment to charge the total. */
    CHARGING_PAYMENT,
    /** Step 4 done: the order is confirmed. */
    CONFIRMED,
    /** A step failed, timed out or was cancelled: waiting for the done steps to be undone. */
    COMPENSATING,
    /** Every compensation is confirmed: the order is cancelled. */
    CANCELLED,
    /** Compensation kept failing: quarantined for an operator (retry or discard). */
    COMPENSATION_FAILED;

    /** Whether the saga has nothing more to do on its own. */
    public boolean isTerminal() {
        return this == CONFIRMED || this == CANCELLED || this == COMPENSATION_FAILED;
    }
}
