package io.sagaflow.inventory.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the inventory service's published events under their stable names. */
public final class InventoryContracts {

    /** Stream id prefix of products: {@code product-<productId>}. */
    public static final String PRODUCT_STREAM = "product-";

    /** Stream id prefix of one order's reservation: {@code reservation-<orderId>}. */
    public static final String RESERVATION_STREAM = "reservation-";

    private InventoryContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished("ProductCreated", ProductCreated.class)
                .registerPublished("StockReserved", StockReserved.class)
                .registerPublished("StockReservationFailed", StockReservationFailed.class)
                .registerPublished("StockReleased", StockReleased.class);
    }
}
