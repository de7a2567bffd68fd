package io.sagaflow.payment.payments.domain;

import io.sagaflow.framework.domain.DomainEvent;
import java.math.BigDecimal;
import java.util.UUID;

/**
 * A payment was asked for: the first event of every payment stream, appended together with its outcome
 * ({@code PaymentCaptured} or {@code PaymentDeclined}). Private to the payment service; it keeps what the published
 * outcome does not carry (currency, method).
 *
 * @param paymentId the payment
 * @param orderId the order paid for
 * @param customerId who pays (null only for a malformed saga request)
 * @param amount the amount, scale 2 (null only for a malformed saga request)
 * @param currency ISO 4217 code
 * @param method payment method
 */
public record PaymentInitiated(
        UUID paymentId, UUID orderId, UUID customerId, BigDecimal amount, String currency, String method)
        implements DomainEvent {}
