package io.sagaflow.order.fulfilment.application;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A saga as clients and operators see it.
 *
 * @param sagaId the saga's id (the order's id)
 * @param status a {@code SagaStatus} name
 * @param currentStep the step in progress, or the last one
 * @param steps every step so far, in order
 * @param durationMs from start to completion (or to now while running)
 * @param deadline when the current wait ends, null once terminal
 * @param failureReason why the order was cancelled or the compensation failed
 */
public record SagaView(
        UUID sagaId,
        String status,
        String currentStep,
        List<Step> steps,
        Instant startedAt,
        Instant completedAt,
        Long durationMs,
        Instant deadline,
        String failureReason) {

    /** One step: RESERVE_STOCK, CHARGE_PAYMENT, CONFIRM_ORDER, RELEASE_STOCK, REFUND_PAYMENT. */
    public record Step(String name, String status, Instant startedAt, Instant completedAt, String detail) {}
}
