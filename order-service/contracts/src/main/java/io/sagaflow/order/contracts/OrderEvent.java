package io.sagaflow.order.contracts;

import io.sagaflow.framework.domain.DomainEvent;

/**
 * An event of an order's stream ({@code order-<orderId>}), published in stream order: a participant sees a request
 * and its later compensation in the order they were decided.
 */
public sealed interface OrderEvent extends DomainEvent
        permits OrderPlaced, PaymentRequested, StockReleaseRequested, RefundRequested, OrderConfirmed, OrderCancelled {}
