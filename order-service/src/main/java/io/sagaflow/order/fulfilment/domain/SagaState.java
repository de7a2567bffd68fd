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

    /**
     * A saga that ended {@code status} ({@link SagaStatus#isFinal() final}), as any message sees it: since no message
     * changes such a saga, its status is all a decision needs of it, and the rest of its state is left out.
     *
     * @throws IllegalArgumentException if {@code status} is not final
     */
    public static SagaState ended(UUID orderId, SagaStatus status) {
        if (!status.isFinal()) {
            throw new IllegalArgumentException("a saga that is " + status + " has not ended for good");
        }
        return new SagaState(
                orderId, null, null, status, null, false, false, false, false, false, false, 0, null, null, null, null);
    }

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

    /** A copy to change. */
    Builder change() {
        return new Builder(this);
    }

    /** Changes one saga state into the next; the fields are those of {@link SagaState}. */
    static final class Builder {
        private final UUID orderId;
        private final UUID customerId;
        private final BigDecimal total;
        private SagaStatus status;
        private Instant deadline;
        private boolean stockReserved;
        private boolean paymentRequested;
        private boolean releaseRequested;
        private boolean releaseConfirmed;
        private boolean refundRequested;
        private boolean refundConfirmed;
        private int compensationAttempts;
        private String cancelCode;
        private String cancelReason;
        private String cancelledBy;
        private String failureReason;

        private Builder(SagaState s) {
            orderId = s.orderId;
            customerId = s.customerId;
            total = s.total;
            status = s.status;
            deadline = s.deadline;
            stockReserved = s.stockReserved;
            paymentRequested = s.paymentRequested;
            releaseRequested = s.releaseRequested;
            releaseConfirmed = s.releaseConfirmed;
            refundRequested = s.refundRequested;
            refundConfirmed = s.refundConfirmed;
            compensationAttempts = s.compensationAttempts;
            cancelCode = s.cancelCode;
            cancelReason = s.cancelReason;
            cancelledBy = s.cancelledBy;
            failureReason = s.failureReason;
        }

        Builder status(SagaStatus value) {
            status = value;
            return this;
        }

        Builder deadline(Instant value) {
            deadline = value;
            return this;
        }

        Builder stockReserved() {
            stockReserved = true;
            return this;
        }

        Builder paymentRequested() {
            paymentRequested = true;
            return this;
        }

        Builder compensating(boolean releaseStock, boolean refundPayment, int attempts) {
            releaseRequested = releaseStock;
            releaseConfirmed = false;
            refundRequested = refundPayment;
            refundConfirmed = false;
            compensationAttempts = attempts;
            failureReason = null;
            return this;
        }

        Builder attempt(int value) {
            compensationAttempts = value;
            failureReason = null;
            return this;
        }

        Builder releaseConfirmed() {
            releaseConfirmed = true;
            return this;
        }

        Builder refundConfirmed() {
            refundConfirmed = true;
            return this;
        }

        Builder cancellation(String code, String reason, String by) {
            cancelCode = code;
            cancelReason = reason;
            cancelledBy = by;
            return this;
        }

        Builder failure(String reason) {
            failureReason = reason;
            return this;
        }

        SagaState build() {
            return new SagaState(
                    orderId,
                    customerId,
                    total,
                    status,
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
}
