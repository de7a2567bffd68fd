package io.sagaflow.order.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import java.util.Set;

/**
 * Registers the order service's published events under their stable names, each on the topics of the consumers
 * that read it (ADR 0036).
 */
public final class OrderContracts {

    /** The order's outcomes, {@code OrderConfirmed} and {@code OrderCancelled}, travel on these topics (ADR 0019). */
    public static final String PUBLISHER = "order";

    /**
     * What the order asks of the stock: {@code OrderPlaced}, which reserves, and {@code StockReleaseRequested}. One
     * topic family, so a release never overtakes the placement it undoes (ADR 0036).
     */
    public static final String STOCK_REQUESTS = "order-stock";

    /** What the order asks of payment: {@code PaymentRequested} and {@code RefundRequested}, in order (ADR 0036). */
    public static final String PAYMENT_REQUESTS = "order-payment";

    /** Every topic family of the order's published events. */
    public static final Set<String> PUBLISHERS = Set.of(PUBLISHER, STOCK_REQUESTS, PAYMENT_REQUESTS);

    /** Stream id prefix of orders: {@code order-<orderId>}. */
    public static final String ORDER_STREAM = "order-";

    private OrderContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(STOCK_REQUESTS, "OrderPlaced", OrderPlaced.class)
                .registerPublished(PAYMENT_REQUESTS, "PaymentRequested", PaymentRequested.class)
                .registerPublished(STOCK_REQUESTS, "StockReleaseRequested", StockReleaseRequested.class)
                .registerPublished(PAYMENT_REQUESTS, "RefundRequested", RefundRequested.class)
                .registerPublished(PUBLISHER, "OrderConfirmed", OrderConfirmed.class)
                .registerPublished(PUBLISHER, "OrderCancelled", OrderCancelled.class);
    }
}
