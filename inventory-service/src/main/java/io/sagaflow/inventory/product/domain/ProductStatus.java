package io.sagaflow.inventory.product.domain;

/** Lifecycle of a product; every product is {@code ACTIVE} from creation on (there is no retirement yet). */
public enum ProductStatus {
    ACTIVE
}
