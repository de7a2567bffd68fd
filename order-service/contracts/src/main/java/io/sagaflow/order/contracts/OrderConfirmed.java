package io.sagaflow.order.contracts;

import java.util.UUID;

/** The order's stock is reserved and its payment captured: CONFIRMED (saga step 4). */
public record OrderConfirmed(UUID orderId) implements OrderEvent {}
