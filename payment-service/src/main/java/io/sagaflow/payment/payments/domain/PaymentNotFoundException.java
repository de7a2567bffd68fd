package io.sagaflow.payment.payments.domain;

import java.util.UUID;

/** A command named a payment that does not exist. */
public final class PaymentNotFoundException extends RuntimeException {

    private final UUID paymentId;

    public PaymentNotFoundException(UUID paymentId) {
        super("payment " + paymentId + " does not exist");
        this.paymentId = paymentId;
    }

    public UUID paymentId() {
        return paymentId;
    }
}
