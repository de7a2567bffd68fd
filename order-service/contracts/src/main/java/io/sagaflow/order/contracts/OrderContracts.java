package io.sagaflow.order.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the order service's published events under their stable names. */
public final class OrderContracts {

    /** The publisher these events are registered under: their messages travel on its topics (ADR 0019). */
    public static final String PUBLISHER = "order";

    /** Stream id prefix of orders: {@code order-<orderId>}. */
    public static final String ORDER_STREAM = "order-";

    private OrderContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PUBLISHER, "OrderPlaced", OrderPlaced.class)
                .registerPublished(PUBLISHER, "PaymentRequested", PaymentRequested.class)
                .registerPublished(PUBLISHER, "StockReleaseRequested", StockReleaseRequested.class)
                .registerPublished(PUBLISHER, "RefundRequested", RefundRequested.class)
                .registerPublished(PUBLISHER, "OrderConfirmed", OrderConfirmed.class)
                .registerPublished(PUBLISHER, "OrderCancelled", OrderCancelled.class);
    }
}
