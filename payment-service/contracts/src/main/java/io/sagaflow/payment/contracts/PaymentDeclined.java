package io.sagaflow.payment.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * A charge was refused by the authorisation rule (saga step 3 failed); {@code code} is stable
 * ({@code AMOUNT_ABOVE_LIMIT}, {@code CREDIT_LIMIT_EXCEEDED}).
 */
public record PaymentDeclined(
        UUID paymentId, UUID orderId, UUID customerId, BigDecimal amount, String code, String reason)
        implements PaymentEvent {}
