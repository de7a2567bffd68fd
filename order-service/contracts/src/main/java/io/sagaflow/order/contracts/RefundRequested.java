package io.sagaflow.order.contracts;

import java.util.UUID;

/** Compensation: payment must refund whatever it captured for the order (nothing, if it captured nothing). */
public record RefundRequested(UUID orderId, String reason) implements OrderEvent {}
