package io.sagaflow.inventory.product.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.domain.ProductStatus;
import io.sagaflow.inventory.product.domain.ProductStockEvent;
import io.sagaflow.inventory.product.domain.ProductStockReleased;
import io.sagaflow.inventory.product.domain.ProductStockReplenished;
import io.sagaflow.inventory.product.domain.ProductStockReserved;
import java.sql.Timestamp;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code product_view} and {@code stock_reservation} in step with the product streams, inside each append's
 * transaction, and drops changed products from the view cache once that commits. A change to a row that is not there
 * fails the append: the view never silently drifts from the streams.
 */
@Component
public class ProductViewProjection implements Projection {

    private final ViewCache<ProductView> cache;

    public ProductViewProjection(ViewCache<ProductView> cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "product-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, JdbcTemplate jdbc) {
        Timestamp at = Timestamp.from(event.occurredAt());
        switch (event.payload()) {
            case ProductCreated created -> {
                jdbc.update(
                        "insert into product_view (product_id, sku, name, description, price, category, status,"
                                + " quantity_on_hand, quantity_reserved, version, created_at, updated_at)"
                                + " values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                        created.productId(),
                        created.sku(),
                        created.name(),
                        created.description(),
                        created.price(),
                        created.category(),
                        ProductStatus.ACTIVE.name(),
                        created.quantityOnHand(),
                        event.version(),
                        at,
                        at);
                cache.invalidateAfterCommit(created.productId().toString());
            }
            case ProductStockEvent change -> apply(change, event.version(), at, jdbc);
            default -> {
                // Reservation-stream events and consumed events are not part of this view.
            }
        }
    }

    private void apply(ProductStockEvent change, long version, Timestamp at, JdbcTemplate jdbc) {
        switch (change) {
            case ProductStockReserved reserved -> {
                updateProduct(jdbc, reserved.productId(), 0, reserved.quantity(), version, at);
                jdbc.update(
                        "insert into stock_reservation (product_id, order_id, quantity, source, active, reserved_at,"
                                + " updated_at) values (?, ?, ?, ?, true, ?, ?)"
                                + " on conflict (product_id, order_id) do update set"
                                + " quantity = case when stock_reservation.active"
                                + " then stock_reservation.quantity + excluded.quantity else excluded.quantity end,"
                                + " source = excluded.source, active = true, updated_at = excluded.updated_at",
                        reserved.productId(),
                        reserved.orderId(),
                        reserved.quantity(),
                        reserved.channel().name(),
                        at,
                        at);
            }
            case ProductStockReleased released -> {
                updateProduct(jdbc, released.productId(), 0, -released.quantity(), version, at);
                // Right-hand sides see the row as it was: "active" compares the old quantity.
                int changed = jdbc.update(
                        "update stock_reservation set active = quantity > ?,"
                                + " quantity = case when quantity > ? then quantity - ? else quantity end,"
                                + " updated_at = ? where product_id = ? and order_id = ? and active",
                        released.quantity(),
                        released.quantity(),
                        released.quantity(),
                        at,
                        released.productId(),
                        released.orderId());
                requireOne(changed, "reservation of order " + released.orderId() + " on " + released.productId());
            }
            case ProductStockReplenished replenished ->
                updateProduct(jdbc, replenished.productId(), replenished.quantity(), 0, version, at);
        }
    }

    private void updateProduct(
            JdbcTemplate jdbc, UUID productId, int onHandDelta, int reservedDelta, long version, Timestamp at) {
        int changed = jdbc.update(
                "update product_view set quantity_on_hand = quantity_on_hand + ?,"
                        + " quantity_reserved = quantity_reserved + ?, version = ?, updated_at = ?"
                        + " where product_id = ?",
                onHandDelta,
                reservedDelta,
                version,
                at,
                productId);
        requireOne(changed, "product " + productId);
        cache.invalidateAfterCommit(productId.toString());
    }

    private static void requireOne(int changed, String what) {
        if (changed != 1) {
            throw new IllegalStateException("product view out of step with the event store: no row for " + what);
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from stock_reservation");
        jdbc.update("delete from product_view");
        cache.clear();
    }
}
