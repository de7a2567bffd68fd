package io.sagaflow.inventory.product.application;

import java.util.UUID;

/** The product asked for does not exist. */
public final class ProductNotFound extends RuntimeException {

    private final UUID productId;

    public ProductNotFound(UUID productId) {
        super("product " + productId + " does not exist");
        this.productId = productId;
    }

    public UUID productId() {
        return productId;
    }
}
