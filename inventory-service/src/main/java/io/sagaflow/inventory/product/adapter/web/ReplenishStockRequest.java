package io.sagaflow.inventory.product.adapter.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /api/products/{id}/stock/replenish}. */
public record ReplenishStockRequest(
        @NotNull @Positive Integer quantity,
        @NotBlank @Size(max = 500) String reason) {}
