package io.sagaflow.payment.payments.adapter.web;

import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/payments/{id}/refund}; the body and its reason are optional.
 *
 * @param reason why the payment is refunded, at most 500 characters
 */
record RefundPaymentRequest(@Size(max = 500) String reason) {

    static final String DEFAULT_REASON = "Refunded on request";

    String reasonOrDefault() {
        return reason == null || reason.isBlank() ? DEFAULT_REASON : reason;
    }
}
