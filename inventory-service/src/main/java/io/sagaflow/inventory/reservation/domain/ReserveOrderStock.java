package io.sagaflow.inventory.reservation.domain;

import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reserve every line of an order, or none.
 *
 * @param customerId the order's customer, passed on in {@code StockReserved} for payment to charge (ADR 0055)
 * @param total the order's total, passed on likewise
 * @param lines the order's lines as placed (a product may appear more than once)
 * @param stock the locked stock of every product of {@code lines} that exists; a product without an entry is unknown
 */
public record ReserveOrderStock(
        UUID orderId, UUID customerId, BigDecimal total, List<ReservedLine> lines, Map<UUID, ProductStock> stock)
        implements ReservationCommand {

    public ReserveOrderStock {
        if (orderId == null) {
            throw new IllegalArgumentException("orderId is required");
        }
        lines = List.copyOf(lines);
        stock = Map.copyOf(stock);
    }
}
