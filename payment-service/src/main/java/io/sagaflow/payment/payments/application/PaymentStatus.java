package io.sagaflow.payment.payments.application;

/** A payment's status as the API shows it. */
public enum PaymentStatus {
    CAPTURED,
    DECLINED,
    REFUNDED
}
