package io.sagaflow.inventory.product.domain;

import java.util.UUID;

/** {@code quantity} more units of the product are held for {@code orderId}. */
public record ProductStockReserved(UUID productId, UUID orderId, int quantity, ReservationChannel channel)
        implements ProductStockEvent {}
