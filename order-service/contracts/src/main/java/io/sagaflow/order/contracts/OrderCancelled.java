package io.sagaflow.order.contracts;

import java.util.UUID;

/** The order is CANCELLED with a stable {@code code} and a reason; its compensations were requested before. */
public record OrderCancelled(UUID orderId, String code, String reason, String cancelledBy) implements OrderEvent {}
