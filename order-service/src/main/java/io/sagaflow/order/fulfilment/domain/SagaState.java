package io.sagaflow.order.fulfilment.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * An order fulfilment saga as its recorded events leave it.
 *
 * @param orderId the order (and saga) id
 * @param customerId who pays
 * @param total what payment charges
 * @param status where the saga stands
 * @param deadline when the current wait ends: the saga's deadline, then each compensation attempt's
 * @param stockReserved inventory confirmed the reservation
 * @param paymentRequested payment was asked to charge
 * @param releaseRequested inventory was asked to release
 * @param releaseConfirmed inventory confirmed the release
 * @param refundRequested payment was asked to refund
 * @param refundConfirmed payment confirmed the refund (or that none was needed)
 * @param compensationAttempts how many times the compensations were requested
 * @param cancelCode why the order is being (or was) cancelled, once compensation started
 * @param cancelReason the same in words
 * @param cancelledBy who asked: {@code saga} for failures and deadlines, else the customer or operator
 * @param failureReason why compensation failed, when quarantined
 */
public record SagaState(
        UUID orderId,
        UUID customerId,
        BigDecimal total,
        SagaStatus status,
        Instant deadline,
        boolean stockReserved,
        boolean paymentRequested,
        boolean releaseRequested,
        boolean releaseConfirmed,
        boolean refundRequested,
        boolean refundConfirmed,
        int compensationAttempts,
        String cancelCode,
        String cancelReason,
        String cancelledBy,
        String failureReason) {

    /** No saga: the order was never placed. */
    public static final SagaState NONE = new SagaState(
            null, null, null, null, null, false, false, false, false, false, false, 0, null, null, null, null);

    public boolean exists() {
        return status != null;
    }

    public boolean is(SagaStatus expected) {
        return status == expected;
    }

    /** Whether every compensation that was requested is confirmed. */
    public boolean compensationsDone() {
        return (!releaseRequested || releaseConfirmed) && (!refundRequested || refundConfirmed);
    }

    SagaState with(SagaStatus newStatus) {
        return new SagaState(
                orderId,
                customerId,
                total,
                newStatus,
                deadline,
                stockReserved,
                paymentRequested,
                releaseRequested,
                releaseConfirmed,
                refundRequested,
                refundConfirmed,
                compensationAttempts,
                cancelCode,
                cancelReason,
                cancelledBy,
                failureReason);
    }
}
