package io.sagaflow.inventory.product.adapter.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.UUID;

/** Body of {@code POST /api/products/{id}/stock/reserve}. */
public record ReserveStockRequest(
        @NotNull @Positive Integer quantity, @NotNull UUID orderId) {}
