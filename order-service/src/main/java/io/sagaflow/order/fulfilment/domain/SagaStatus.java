package io.sagaflow.order.fulfilment.domain;

/** Where an order fulfilment saga stands. */
public enum SagaStatus {
    /**
     * Steps 2 and 3: waiting for inventory to reserve every line and for payment, which charges the total on that
     * reservation, to answer (ADR 0055).
     */
    RESERVING_STOCK,
    /**
     * Step 3 of a saga that heard of its reservation before payment answered: waiting for payment to charge the total.
     * Since ADR 0055 only sagas whose inbox was written before it pass through it for longer than one decision.
     */
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

    /**
     * Whether no message can change the saga any more: confirmed or cancelled. A quarantined saga is terminal but not
     * final: an operator's retry or discard, or a compensation confirmed late, still moves it.
     */
    public boolean isFinal() {
        return this == CONFIRMED || this == CANCELLED;
    }
}
