package io.sagaflow.inventory.contracts;

import java.util.List;
import java.util.UUID;

/** Every line item of an order was reserved, all at once (saga step 2 succeeded). */
public record StockReserved(UUID orderId, List<ReservedLine> lines) implements InventoryEvent {

    /** One reserved line: {@code quantity} units of {@code productId}. */
    public record ReservedLine(UUID productId, int quantity) {}
}
