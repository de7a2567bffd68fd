package io.sagaflow.inventory.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import java.util.Set;

/**
 * Registers the inventory service's published events under their stable names, each on the topics of the consumers
 * that read it (ADR 0036).
 */
public final class InventoryContracts {

    /** The stock's answers to the order saga travel on these topics (ADR 0019): failed reservations, releases. */
    public static final String PUBLISHER = "inventory";

    /**
     * Reserved stock: {@code StockReserved}, on which payment charges the order (ADR 0055). Its own family, because
     * payment reads it and nothing else of the inventory's, and the order saga reads the inventory's other answers
     * but not this one (ADR 0036).
     */
    public static final String RESERVATIONS = "inventory-reservations";

    /** The catalogue: {@code ProductCreated}, which orders' price lists copy (ADR 0036). */
    public static final String PRODUCTS = "inventory-products";

    /** Every topic family of the inventory's published events. */
    public static final Set<String> PUBLISHERS = Set.of(PUBLISHER, RESERVATIONS, PRODUCTS);

    /** Stream id prefix of products: {@code product-<productId>}. */
    public static final String PRODUCT_STREAM = "product-";

    /** Stream id prefix of one order's reservation: {@code reservation-<orderId>}. */
    public static final String RESERVATION_STREAM = "reservation-";

    private InventoryContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PRODUCTS, "ProductCreated", ProductCreated.class)
                .registerPublished(RESERVATIONS, "StockReserved", StockReserved.class)
                .registerPublished(PUBLISHER, "StockReservationFailed", StockReservationFailed.class)
                .registerPublished(PUBLISHER, "StockReleased", StockReleased.class);
    }
}
