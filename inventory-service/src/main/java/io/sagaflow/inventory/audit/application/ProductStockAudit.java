package io.sagaflow.inventory.audit.application;

import java.util.Map;
import java.util.UUID;

/**
 * One product in the stock audit.
 *
 * @param reservedByOrder units held per order, active reservations only
 */
public record ProductStockAudit(
        UUID productId, int quantityOnHand, int quantityReserved, Map<UUID, Integer> reservedByOrder) {

    public ProductStockAudit {
        reservedByOrder = Map.copyOf(reservedByOrder);
    }

    /** Reserved units equal the sum of the active reservations and lie between zero and the units on hand. */
    public boolean consistent() {
        long held =
                reservedByOrder.values().stream().mapToLong(Integer::longValue).sum();
        return held == quantityReserved && quantityReserved >= 0 && quantityReserved <= quantityOnHand;
    }
}
