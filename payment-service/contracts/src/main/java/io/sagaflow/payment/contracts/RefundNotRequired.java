package io.sagaflow.payment.contracts;

import java.util.UUID;

/**
 * The answer to a refund request for an order that has nothing to refund (its payment was declined, never made, or
 * already refunded), so the saga knows the compensation is complete.
 */
public record RefundNotRequired(UUID orderId, String reason) implements PaymentEvent {}
