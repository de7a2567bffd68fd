package io.sagaflow.payment.payments.domain;

/** The stable codes of {@code PaymentDeclined}, in the order the authorisation rule checks them. */
public enum DeclineCode {
    /** The request lacks a customer or a positive amount (only possible for saga requests; HTTP validates first). */
    INVALID_REQUEST,
    /** The order was cancelled (a refund was requested) before its payment was requested. */
    ORDER_CANCELLED,
    /** The amount is above the per-payment limit. */
    AMOUNT_ABOVE_LIMIT,
    /** The customer's outstanding total plus the amount would exceed the credit limit. */
    CREDIT_LIMIT_EXCEEDED
}
