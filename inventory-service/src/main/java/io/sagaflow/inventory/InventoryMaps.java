package io.sagaflow.inventory;

/** Names of the inventory service's Hazelcast maps, in one place. */
public final class InventoryMaps {

    /** Cache of {@code product_view} rows by product id, as JSON; bounded, loaded through from PostgreSQL. */
    public static final String PRODUCT_VIEWS = "inventory.product-views";

    private InventoryMaps() {}
}
