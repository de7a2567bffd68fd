package io.sagaflow.inventory.product.domain;

import java.math.BigDecimal;
import java.util.UUID;

/** Add a product to the catalogue with {@code quantityOnHand} units in stock; the id is chosen by the caller. */
public record CreateProduct(
        UUID productId,
        String sku,
        String name,
        String description,
        BigDecimal price,
        int quantityOnHand,
        String category)
        implements ProductCommand {

    public CreateProduct {
        if (productId == null || sku == null || name == null || price == null) {
            throw new IllegalArgumentException("productId, sku, name and price are required");
        }
        if (price.signum() <= 0) {
            throw new IllegalArgumentException("price must be positive");
        }
        if (quantityOnHand < 0) {
            throw new IllegalArgumentException("quantityOnHand must not be negative");
        }
    }
}
