package io.sagaflow.inventory.product.domain;

import java.util.UUID;

/** Give back {@code quantity} of the units held for {@code orderId}, at most what it holds. */
public record ReleaseStock(UUID orderId, int quantity, String reason) implements ProductCommand {

    public ReleaseStock {
        if (orderId == null) {
            throw new IllegalArgumentException("orderId is required");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
    }
}
