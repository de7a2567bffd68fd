package io.sagaflow.inventory.audit.application;

import java.util.UUID;

/**
 * One product in the stock audit.
 *
 * @param quantityHeld the sum of the product's active reservations
 * @param consistent whether its reserved units equal {@code quantityHeld} and lie between zero and the units on hand
 */
public record ProductStockAudit(
        UUID productId, int quantityOnHand, int quantityReserved, long quantityHeld, boolean consistent) {

    public static ProductStockAudit of(UUID productId, int quantityOnHand, int quantityReserved, long quantityHeld) {
        return new ProductStockAudit(
                productId,
                quantityOnHand,
                quantityReserved,
                quantityHeld,
                quantityHeld == quantityReserved && quantityReserved >= 0 && quantityReserved <= quantityOnHand);
    }
}
