package io.sagaflow.payment.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/** A captured payment was refunded in full (compensation, or on request), once. */
public record PaymentRefunded(UUID paymentId, UUID orderId, BigDecimal amount, String reason) implements PaymentEvent {}
