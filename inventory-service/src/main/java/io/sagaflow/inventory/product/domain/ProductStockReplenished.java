package io.sagaflow.inventory.product.domain;

import java.util.UUID;

/** {@code quantity} units were added to the product's stock on hand. */
public record ProductStockReplenished(UUID productId, int quantity, String reason) implements ProductStockEvent {}
