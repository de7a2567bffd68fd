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
import java.util.ArrayList;
import java.util.List;
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

    /** Inserts the rows of all orders placed in one statement, then applies the other events one by one. */
    @Override
    public void applyAll(List<EventEnvelope<Object>> events, JdbcTemplate jdbc) {
        List<EventEnvelope<Object>> placed = new ArrayList<>();
        for (EventEnvelope<Object> event : events) {
            if (event.payload() instanceof OrderPlaced) {
                placed.add(event);
            }
        }
        if (!placed.isEmpty()) {
            insert(placed, jdbc);
        }
        for (EventEnvelope<Object> event : events) {
            if (!(event.payload() instanceof OrderPlaced)) {
                apply(event, jdbc);
            }
        }
    }

    /**
     * The rows of placed orders. A new order is not in the cache (a read before this commits finds no row, and the
     * cache keeps nothing for a miss), so there is nothing to drop from it.
     */
    private void insert(List<EventEnvelope<Object>> placed, JdbcTemplate jdbc) {
        StringBuilder sql = new StringBuilder("insert into order_view (order_id, customer_id, status, line_items,"
                + " subtotal, tax, total, shipping_address, created_at, updated_at) values ");
        List<Object> args = new ArrayList<>(placed.size() * 9);
        for (EventEnvelope<Object> event : placed) {
            OrderPlaced order = (OrderPlaced) event.payload();
            Timestamp at = Timestamp.from(event.occurredAt());
            sql.append(args.isEmpty() ? "" : ", ").append("(?, ?, 'PENDING', ?::jsonb, ?, ?, ?, ?, ?, ?)");
            args.add(order.orderId());
            args.add(order.customerId());
            args.add(json.writeValueAsString(order.lines().stream()
                    .map(l -> new OrderView.LineItem(
                            l.productId(), l.quantity(), l.unitPrice(), OrderPricing.lineTotal(l)))
                    .toList()));
            args.add(order.subtotal());
            args.add(order.tax());
            args.add(order.total());
            args.add(order.shippingAddress());
            args.add(at);
            args.add(at);
        }
        jdbc.update(sql.toString(), args.toArray());
    }

    @Override
    public void apply(EventEnvelope<Object> event, JdbcTemplate jdbc) {
        Timestamp at = Timestamp.from(event.occurredAt());
        switch (event.payload()) {
            case OrderPlaced placed -> insert(List.of(event), jdbc);
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
