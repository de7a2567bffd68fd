package io.sagaflow.inventory.audit.application;

import java.util.UUID;

/** Units of one product an order holds, as an active reservation. */
public record ActiveReservation(UUID orderId, UUID productId, int quantity) {}
