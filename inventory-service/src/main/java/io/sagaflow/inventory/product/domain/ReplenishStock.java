package io.sagaflow.inventory.product.domain;

/** Add {@code quantity} units to the stock on hand (a delivery, a stock-take correction). */
public record ReplenishStock(int quantity, String reason) implements ProductCommand {

    public ReplenishStock {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
    }
}
