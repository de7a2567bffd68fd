package io.sagaflow.order.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the order service's published events under their stable names. */
public final class OrderContracts {

    /** Stream id prefix of orders: {@code order-<orderId>}. */
    public static final String ORDER_STREAM = "order-";

    private OrderContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished("OrderPlaced", OrderPlaced.class)
                .registerPublished("PaymentRequested", PaymentRequested.class)
                .registerPublished("StockReleaseRequested", StockReleaseRequested.class)
                .registerPublished("RefundRequested", RefundRequested.class)
                .registerPublished("OrderConfirmed", OrderConfirmed.class)
                .registerPublished("OrderCancelled", OrderCancelled.class);
    }
}
