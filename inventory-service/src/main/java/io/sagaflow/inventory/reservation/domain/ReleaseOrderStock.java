package io.sagaflow.inventory.reservation.domain;

import java.util.UUID;

/** Release whatever the order holds (compensation); answered exactly once, also when nothing was reserved. */
public record ReleaseOrderStock(UUID orderId, String reason) implements ReservationCommand {

    public ReleaseOrderStock {
        if (orderId == null) {
            throw new IllegalArgumentException("orderId is required");
        }
    }
}
