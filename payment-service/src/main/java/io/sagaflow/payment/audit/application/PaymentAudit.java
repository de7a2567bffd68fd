package io.sagaflow.payment.audit.application;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/**
 * Money per order as the payment service holds it, for the order service's invariant check (a cancelled order keeps
 * nothing: captured equals refunded), one page of orders at a time. JSON field names are part of the API.
 *
 * @param orders one page of the orders with a payment, by order id (PostgreSQL's {@code uuid} order)
 * @param totalCaptured the sum of {@code captured} over all orders, not only this page's; null when not asked for
 * @param totalRefunded the sum of {@code refunded} over all orders, not only this page's; null when not asked for
 */
public record PaymentAudit(List<OrderMoney> orders, BigDecimal totalCaptured, BigDecimal totalRefunded) {

    public PaymentAudit {
        orders = List.copyOf(orders);
    }

    /**
     * One order's money.
     *
     * @param orderId the order
     * @param captured the amount its payments captured (including ones refunded later)
     * @param refunded the amount refunded of them
     */
    public record OrderMoney(UUID orderId, BigDecimal captured, BigDecimal refunded) {}
}
