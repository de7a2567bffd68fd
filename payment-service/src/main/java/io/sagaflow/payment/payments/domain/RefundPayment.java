package io.sagaflow.payment.payments.domain;

import java.util.Objects;
import java.util.UUID;

/**
 * Refund a captured payment in full, once.
 *
 * @param paymentId the payment
 * @param reason why, shown on the payment and sent with {@code PaymentRefunded}
 */
public record RefundPayment(UUID paymentId, String reason) implements PaymentCommand {

    public RefundPayment {
        Objects.requireNonNull(paymentId, "paymentId");
        Objects.requireNonNull(reason, "reason");
    }
}
