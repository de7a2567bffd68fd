package io.sagaflow.payment.payments.application;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * A payment as the API shows it (the JSON field names are part of the API), read from the {@code payment_view} table.
 *
 * @param paymentId the payment
 * @param orderId the order paid for
 * @param customerId who pays
 * @param amount the amount charged or declined, scale 2
 * @param currency ISO 4217 code
 * @param method payment method
 * @param status where the payment stands
 * @param declineCode the authorisation rule's code when declined, otherwise null
 * @param reason why it was declined or refunded, otherwise null
 * @param createdAt when it was authorised
 * @param updatedAt when it last changed
 * @param refundedAmount the amount refunded, 0.00 unless refunded
 */
public record PaymentView(
        UUID paymentId,
        UUID orderId,
        UUID customerId,
        BigDecimal amount,
        String currency,
        String method,
        PaymentStatus status,
        String declineCode,
        String reason,
        Instant createdAt,
        Instant updatedAt,
        BigDecimal refundedAmount) {}
