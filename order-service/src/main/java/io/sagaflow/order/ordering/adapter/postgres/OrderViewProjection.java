package io.sagaflow.order.ordering.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.SqlArray;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.ordering.application.OrderView;
import io.sagaflow.order.ordering.domain.OrderPricing;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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

    /**
     * Writes an append's changes kind by kind, each kind in one statement: the rows of the orders placed, then the
     * confirmations, then the cancellations. An order is placed in one append and ended in a later one, once (its
     * decider refuses a second end), so no row is changed twice here and the kinds' order is the events'.
     */
    @Override
    public void applyAll(List<EventEnvelope<Object>> events, ViewWrites writes) {
        List<EventEnvelope<Object>> placed = new ArrayList<>();
        List<EventEnvelope<Object>> confirmed = new ArrayList<>();
        List<EventEnvelope<Object>> cancelled = new ArrayList<>();
        for (EventEnvelope<Object> event : events) {
            switch (event.payload()) {
                case OrderPlaced ignored -> placed.add(event);
                case OrderConfirmed ignored -> confirmed.add(event);
                case OrderCancelled ignored -> cancelled.add(event);
                default -> {
                    // the saga's own facts and requests do not change the order as clients see it
                }
            }
        }
        if (!placed.isEmpty()) {
            insert(placed, writes);
        }
        if (!confirmed.isEmpty()) {
            confirm(confirmed, writes);
        }
        if (!cancelled.isEmpty()) {
            cancel(cancelled, writes);
        }
    }

    @Override
    public void apply(EventEnvelope<Object> event, ViewWrites writes) {
        applyAll(List.of(event), writes);
    }

    /**
     * The rows of placed orders, in one statement on arrays whose text does not depend on how many orders a group
     * placed (ADR 0042, 0053). A new order is not in the cache (a read before this commits finds no row, and the cache
     * keeps nothing for a miss), so there is nothing to drop from it.
     */
    private void insert(List<EventEnvelope<Object>> placed, ViewWrites writes) {
        int size = placed.size();
        UUID[] orders = new UUID[size];
        UUID[] customers = new UUID[size];
        String[] lines = new String[size];
        BigDecimal[] subtotals = new BigDecimal[size];
        BigDecimal[] taxes = new BigDecimal[size];
        BigDecimal[] totals = new BigDecimal[size];
        String[] addresses = new String[size];
        String[] times = new String[size];
        for (int i = 0; i < size; i++) {
            EventEnvelope<Object> event = placed.get(i);
            OrderPlaced order = (OrderPlaced) event.payload();
            orders[i] = order.orderId();
            customers[i] = order.customerId();
            lines[i] = json.writeValueAsString(order.lines().stream()
                    .map(l -> new OrderView.LineItem(
                            l.productId(), l.quantity(), l.unitPrice(), OrderPricing.lineTotal(l)))
                    .toList());
            subtotals[i] = order.subtotal();
            taxes[i] = order.tax();
            totals[i] = order.total();
            addresses[i] = order.shippingAddress();
            times[i] = event.occurredAt().toString();
        }
        writes.update(
                "insert into order_view (order_id, customer_id, status, line_items, subtotal, tax, total,"
                        + " shipping_address, created_at, updated_at)"
                        + " select o.order_id, o.customer_id, 'PENDING', o.line_items::jsonb, o.subtotal, o.tax, o.total,"
                        + " o.shipping_address, o.at::timestamptz, o.at::timestamptz"
                        + " from unnest(?::uuid[], ?::uuid[], ?::text[], ?::numeric[], ?::numeric[], ?::numeric[],"
                        + " ?::text[], ?::text[])"
                        + " as o (order_id, customer_id, line_items, subtotal, tax, total, shipping_address, at)",
                new SqlArray("uuid", orders),
                new SqlArray("uuid", customers),
                new SqlArray("text", lines),
                new SqlArray("numeric", subtotals),
                new SqlArray("numeric", taxes),
                new SqlArray("numeric", totals),
                new SqlArray("text", addresses),
                new SqlArray("text", times));
    }

    /** The confirmations of an append, in one statement on arrays (ADR 0042). */
    private void confirm(List<EventEnvelope<Object>> confirmed, ViewWrites writes) {
        int size = confirmed.size();
        UUID[] ids = new UUID[size];
        String[] times = new String[size];
        for (int i = 0; i < size; i++) {
            ids[i] = ((OrderConfirmed) confirmed.get(i).payload()).orderId();
            times[i] = confirmed.get(i).occurredAt().toString();
        }
        writes.update(
                "update order_view v set status = 'CONFIRMED', updated_at = u.at::timestamptz"
                        + " from unnest(?::uuid[], ?::text[]) as u (order_id, at) where v.order_id = u.order_id",
                new SqlArray("uuid", ids),
                new SqlArray("text", times));
        for (UUID id : ids) {
            cache.invalidateAfterCommit(id.toString());
        }
    }

    /** The cancellations of an append, with their reasons, in one statement on arrays (ADR 0042). */
    private void cancel(List<EventEnvelope<Object>> cancelled, ViewWrites writes) {
        int size = cancelled.size();
        UUID[] ids = new UUID[size];
        String[] codes = new String[size];
        String[] reasons = new String[size];
        String[] by = new String[size];
        String[] times = new String[size];
        for (int i = 0; i < size; i++) {
            OrderCancelled cancel = (OrderCancelled) cancelled.get(i).payload();
            ids[i] = cancel.orderId();
            codes[i] = cancel.code();
            reasons[i] = cancel.reason();
            by[i] = cancel.cancelledBy();
            times[i] = cancelled.get(i).occurredAt().toString();
        }
        writes.update(
                "update order_view v set status = 'CANCELLED', cancel_code = u.code, cancel_reason = u.reason,"
                        + " cancelled_by = u.cancelled_by, updated_at = u.at::timestamptz"
                        + " from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[])"
                        + " as u (order_id, code, reason, cancelled_by, at) where v.order_id = u.order_id",
                new SqlArray("uuid", ids),
                new SqlArray("text", codes),
                new SqlArray("text", reasons),
                new SqlArray("text", by),
                new SqlArray("text", times));
        for (UUID id : ids) {
            cache.invalidateAfterCommit(id.toString());
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from order_view");
        cache.clear();
    }
}
