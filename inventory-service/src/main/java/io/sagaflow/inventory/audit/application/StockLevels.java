package io.sagaflow.inventory.audit.application;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Reads the stock audit's figures from the read model, each answer from one consistent snapshot. */
public interface StockLevels {

    /** Every product, in id order, with the sum of its active reservations. */
    List<ProductStockAudit> snapshot();

    /**
     * The active reservations of the first {@code orders} orders whose id is greater than {@code afterOrder} (from
     * the first order when it is empty), by order id then product id, every reservation of each of those orders.
     */
    List<ActiveReservation> activeReservations(Optional<UUID> afterOrder, int orders);
}
