package io.sagaflow.inventory.product.domain;

import java.util.UUID;

/** Hold {@code quantity} units of the product for {@code orderId}; asking again for the same quantity is a no-op. */
public record ReserveStock(UUID orderId, int quantity, ReservationChannel channel) implements ProductCommand {

    public ReserveStock {
        if (orderId == null || channel == null) {
            throw new IllegalArgumentException("orderId and channel are required");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
    }
}
