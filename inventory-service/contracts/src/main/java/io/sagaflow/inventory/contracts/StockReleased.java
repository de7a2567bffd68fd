package io.sagaflow.inventory.contracts;

import java.util.UUID;

/** An order's reservation was released (compensation), once; {@code lines} is empty if nothing was reserved. */
public record StockReleased(UUID orderId, java.util.List<StockReserved.ReservedLine> lines, String reason)
        implements InventoryEvent {}
