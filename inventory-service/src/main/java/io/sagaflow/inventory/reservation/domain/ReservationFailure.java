package io.sagaflow.inventory.reservation.domain;

/** The stable {@code code}s of {@code StockReservationFailed}. */
public final class ReservationFailure {

    /** A line asks for more units than are available. */
    public static final String OUT_OF_STOCK = "OUT_OF_STOCK";

    /** A line names a product that does not exist. */
    public static final String UNKNOWN_PRODUCT = "UNKNOWN_PRODUCT";

    /** A line names a product that may not be reserved. */
    public static final String PRODUCT_INACTIVE = "PRODUCT_INACTIVE";

    /** The order was cancelled (its stock release requested) before its placement arrived. */
    public static final String ORDER_CANCELLED = "ORDER_CANCELLED";

    /** A line asks for zero or fewer units. */
    public static final String INVALID_QUANTITY = "INVALID_QUANTITY";

    /** The product already holds a different quantity for this order (reserved through the API). */
    public static final String RESERVATION_CONFLICT = "RESERVATION_CONFLICT";

    private ReservationFailure() {}
}
