package io.sagaflow.payment.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/** An order's total was charged (saga step 3 succeeded). */
public record PaymentCaptured(UUID paymentId, UUID orderId, UUID customerId, BigDecimal amount)
        implements PaymentEvent {}
