package io.sagaflow.inventory.product.application;

import io.sagaflow.inventory.product.domain.Product;
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
        Instant updatedAt) {

    /** This product with the stock of {@code state}, changed at {@code at}: the row as the projection moves it. */
    public ProductView withStock(Product state, Instant at) {
        return new ProductView(
                productId,
                sku,
                name,
                description,
                price,
                state.quantityOnHand(),
                state.quantityReserved(),
                state.availableQuantity(),
                category,
                status,
                createdAt,
                at);
    }
}
