package io.sagaflow.payment.payments.domain;

import java.util.UUID;

/** A refund was asked for a payment that never captured money (it was declined). */
public final class PaymentNotRefundableException extends RuntimeException {

    public PaymentNotRefundableException(UUID paymentId) {
        super("payment " + paymentId + " was declined: there is nothing to refund");
    }
}
