package io.sagaflow.inventory.product.domain;

/**
 * A command that would break a product's rules and therefore changes nothing. {@link #reason} is stable (clients
 * switch on it); {@code available} and {@code requested} say by how much it failed where that applies, else -1.
 */
public final class StockRejected extends RuntimeException {

    /** Why a command was refused. */
    public enum Reason {
        /** Fewer units are available than were asked for. */
        INSUFFICIENT_STOCK,
        /** The order already holds a different quantity of the product. */
        RESERVATION_EXISTS,
        /** The order holds nothing of the product. */
        NO_RESERVATION,
        /** The order holds fewer units than it asked to release. */
        RESERVATION_TOO_SMALL,
        /** The stock on hand would exceed what the service can count. */
        STOCK_LIMIT_EXCEEDED,
        /** The product exists already. */
        PRODUCT_EXISTS,
        /** The product does not exist. */
        PRODUCT_NOT_FOUND
    }

    private final Reason reason;
    private final long available;
    private final long requested;

    public StockRejected(Reason reason, String detail) {
        this(reason, detail, -1, -1);
    }

    public StockRejected(Reason reason, String detail, long available, long requested) {
        super(detail);
        this.reason = reason;
        this.available = available;
        this.requested = requested;
    }

    public Reason reason() {
        return reason;
    }

    public long available() {
        return available;
    }

    public long requested() {
        return requested;
    }
}
