package io.sagaflow.inventory.product.domain;

/** What a product stream amounts to: nothing yet, or a {@link Product}. */
public sealed interface ProductState permits ProductState.NoProduct, Product {

    /** The state of a product stream without events. */
    enum NoProduct implements ProductState {
        INSTANCE
    }
}
