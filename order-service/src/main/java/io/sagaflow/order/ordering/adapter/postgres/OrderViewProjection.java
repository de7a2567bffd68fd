package io.sagaflow.order.ordering.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.ordering.application.OrderView;
import io.sagaflow.order.ordering.domain.OrderPricing;
import java.sql.Timestamp;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Keeps {@code order_view} in step with the order streams: placed, confirmed, cancelled (with the reason). */
public class OrderViewProjection implements Projection {

    private final JsonMapper json;
    private final ViewCache<OrderView> cache;

    public OrderViewProjection(JsonMapper json, ViewCache<OrderView> cache) {
        this.json = json;
        this.cache = cache;
    }

    @Override
    public String name() {
        return "order-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, JdbcTemplate jdbc) {
        Timestamp at = Timestamp.from(event.occurredAt());
        switch (event.payload()) {
            case OrderPlaced placed -> {
                jdbc.update(
                        "insert into order_view (order_id, customer_id, status, line_items, subtotal, tax, total,"
                                + " shipping_address, created_at, updated_at)"
                                + " values (?, ?, 'PENDING', ?::jsonb, ?, ?, ?, ?, ?, ?)",
                        placed.orderId(),
                        placed.customerId(),
                        json.writeValueAsString(placed.lines().stream()
                                .map(l -> new OrderView.LineItem(
                                        l.productId(), l.quantity(), l.unitPrice(), OrderPricing.lineTotal(l)))
                                .toList()),
                        placed.subtotal(),
                        placed.tax(),
                        placed.total(),
                        placed.shippingAddress(),
                        at,
                        at);
                cache.invalidateAfterCommit(placed.orderId().toString());
            }
            case OrderConfirmed confirmed -> {
                jdbc.update(
                        "update order_view set status = 'CONFIRMED', updated_at = ? where order_id = ?",
                        at,
                        confirmed.orderId());
                cache.invalidateAfterCommit(confirmed.orderId().toString());
            }
            case OrderCancelled cancelled -> {
                jdbc.update(
                        "update order_view set status = 'CANCELLED', cancel_code = ?, cancel_reason = ?,"
                                + " cancelled_by = ?, updated_at = ? where order_id = ?",
                        cancelled.code(),
                        cancelled.reason(),
                        cancelled.cancelledBy(),
                        at,
                        cancelled.orderId());
                cache.invalidateAfterCommit(cancelled.orderId().toString());
            }
            default -> {
                // the saga's own facts and requests do not change the order as clients see it
            }
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from order_view");
        cache.clear();
    }
}
