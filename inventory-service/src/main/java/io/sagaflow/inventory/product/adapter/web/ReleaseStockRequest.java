package io.sagaflow.inventory.product.adapter.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.UUID;

/** Body of {@code POST /api/products/{id}/stock/release}. */
public record ReleaseStockRequest(
        @NotNull @Positive Integer quantity,
        @NotNull UUID orderId,
        @NotBlank @Size(max = 500) String reason) {}
