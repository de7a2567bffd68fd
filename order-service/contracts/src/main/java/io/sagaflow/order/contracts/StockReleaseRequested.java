package io.sagaflow.order.contracts;

import java.util.UUID;

/** Compensation: inventory must release whatever it reserved for the order (nothing, if it reserved nothing). */
public record StockReleaseRequested(UUID orderId, String reason) implements OrderEvent {}
