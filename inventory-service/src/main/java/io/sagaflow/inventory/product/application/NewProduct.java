package io.sagaflow.inventory.product.application;

import java.math.BigDecimal;

/** What a client gives to add a product; validated at the edge. */
public record NewProduct(
        String sku, String name, String description, BigDecimal price, int quantityOnHand, String category) {}
