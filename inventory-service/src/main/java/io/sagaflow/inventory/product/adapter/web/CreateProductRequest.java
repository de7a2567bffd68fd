package io.sagaflow.inventory.product.adapter.web;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;

/** Body of {@code POST /api/products}; the price is rounded to cents (half-even). */
public record CreateProductRequest(
        @NotBlank @Size(max = 64) String sku,
        @NotBlank @Size(max = 200) String name,
        @Size(max = 2000) String description,

        @NotNull @DecimalMin("0.01") @DecimalMax("999999999999.99")
        BigDecimal price,

        @NotNull @PositiveOrZero Integer quantityOnHand,
        @Size(max = 100) String category) {}
