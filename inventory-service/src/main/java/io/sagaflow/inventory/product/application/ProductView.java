package io.sagaflow.inventory.product.application;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** A product as clients see it: the {@code product_view} row, with {@code availableQuantity} derived. */
public record ProductView(
        UUID productId,
        String sku,
        String name,
        String description,
        BigDecimal price,
        int quantityOnHand,
        int quantityReserved,
        int availableQuantity,
        String category,
        String status,
        Instant createdAt,
        Instant updatedAt) {}
