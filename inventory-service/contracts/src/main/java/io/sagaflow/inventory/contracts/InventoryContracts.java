package io.sagaflow.inventory.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the inventory service's published events under their stable names. */
public final class InventoryContracts {

    /** The publisher these events are registered under: their messages travel on its topics (ADR 0019). */
    public static final String PUBLISHER = "inventory";

    /** Stream id prefix of products: {@code product-<productId>}. */
    public static final String PRODUCT_STREAM = "product-";

    /** Stream id prefix of one order's reservation: {@code reservation-<orderId>}. */
    public static final String RESERVATION_STREAM = "reservation-";

    private InventoryContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PUBLISHER, "ProductCreated", ProductCreated.class)
                .registerPublished(PUBLISHER, "StockReserved", StockReserved.class)
                .registerPublished(PUBLISHER, "StockReservationFailed", StockReservationFailed.class)
                .registerPublished(PUBLISHER, "StockReleased", StockReleased.class);
    }
}
