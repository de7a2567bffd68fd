package io.sagaflow.inventory.contracts;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/**
 * Every line item of an order was reserved, all at once (saga step 2 succeeded). It also asks payment to charge the
 * order (saga step 3, ADR 0055): {@code customerId} and {@code total} are the order's as it was placed, passed on
 * from its {@code OrderPlaced}. Both are null in events recorded before ADR 0055, whose orders payment charged on the
 * order service's {@code PaymentRequested}.
 */
public record StockReserved(UUID orderId, List<ReservedLine> lines, UUID customerId, BigDecimal total)
        implements InventoryEvent {

    /** One reserved line: {@code quantity} units of {@code productId}. */
    public record ReservedLine(UUID productId, int quantity) {}
}
