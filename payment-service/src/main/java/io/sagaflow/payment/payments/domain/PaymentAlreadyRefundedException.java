package io.sagaflow.payment.payments.domain;

import java.util.UUID;

/** A refund was asked for a payment that is already refunded; a payment is refunded at most once. */
public final class PaymentAlreadyRefundedException extends RuntimeException {

    public PaymentAlreadyRefundedException(UUID paymentId) {
        super("payment " + paymentId + " is already refunded");
    }
}
