package io.sagaflow.inventory.contracts;

import java.util.UUID;

/**
 * An order's stock could not be reserved, so none of it was (saga step 2 failed). {@code code} is stable
 * ({@code OUT_OF_STOCK}, {@code UNKNOWN_PRODUCT}, {@code PRODUCT_INACTIVE}); {@code productId} names the first line
 * that failed.
 */
public record StockReservationFailed(UUID orderId, String code, String reason, UUID productId)
        implements InventoryEvent {}
