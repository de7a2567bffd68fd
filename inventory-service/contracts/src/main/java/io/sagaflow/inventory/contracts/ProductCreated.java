package io.sagaflow.inventory.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/** A product was added to the catalogue; the order service keeps a copy of its id, SKU, name and price. */
public record ProductCreated(
        UUID productId,
        String sku,
        String name,
        String description,
        BigDecimal price,
        int quantityOnHand,
        String category)
        implements InventoryEvent {}
