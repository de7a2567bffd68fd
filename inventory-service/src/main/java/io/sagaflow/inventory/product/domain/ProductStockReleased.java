package io.sagaflow.inventory.product.domain;

import java.util.UUID;

/** {@code quantity} of the units held for {@code orderId} are available again. */
public record ProductStockReleased(UUID productId, UUID orderId, int quantity, String reason)
        implements ProductStockEvent {}
