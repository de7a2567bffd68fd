package io.sagaflow.inventory.product.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.SqlArray;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.domain.ProductStatus;
import io.sagaflow.inventory.product.domain.ProductStockReleased;
import io.sagaflow.inventory.product.domain.ProductStockReplenished;
import io.sagaflow.inventory.product.domain.ProductStockReserved;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    private static final String ON_CONFLICT_ADD = " on conflict (product_id, order_id) do update set"
            + " quantity = case when stock_reservation.active"
            + " then stock_reservation.quantity + excluded.quantity else excluded.quantity end,"
            + " source = excluded.source, active = true, updated_at = excluded.updated_at";

    private static final String RESERVE = "insert into stock_reservation (product_id, order_id, quantity, source,"
            + " active, reserved_at, updated_at) values (?, ?, ?, ?, true, ?, ?)" + ON_CONFLICT_ADD;

    /** {@link #RESERVE} of many rows at once; a statement may change a row only once, so their pairs must differ. */
    private static final String RESERVE_ALL = "insert into stock_reservation (product_id, order_id, quantity, source,"
            + " active, reserved_at, updated_at) select r.product_id, r.order_id, r.quantity, r.source, true,"
            + " r.at::timestamptz, r.at::timestamptz from unnest(?::uuid[], ?::uuid[], ?::int[], ?::text[], ?::text[])"
            + " as r (product_id, order_id, quantity, source, at)" + ON_CONFLICT_ADD;

    // Right-hand sides see the row as it was: "active" compares the old quantity.
    private static final String RELEASE = "update stock_reservation set active = quantity > ?,"
            + " quantity = case when quantity > ? then quantity - ? else quantity end,"
            + " updated_at = ? where product_id = ? and order_id = ? and active";

    /** {@link #RELEASE} of many rows at once; as in {@link #RESERVE_ALL}, their pairs must differ. */
    private static final String RELEASE_ALL = "update stock_reservation s set active = s.quantity > r.quantity,"
            + " quantity = case when s.quantity > r.quantity then s.quantity - r.quantity else s.quantity end,"
            + " updated_at = r.at::timestamptz from unnest(?::uuid[], ?::uuid[], ?::int[], ?::text[])"
            + " as r (product_id, order_id, quantity, at)"
            + " where s.product_id = r.product_id and s.order_id = r.order_id and s.active";

    private final ViewCache<ProductView> cache;

    public ProductViewProjection(ViewCache<ProductView> cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "product-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, ViewWrites writes) {
        applyAll(List.of(event), writes);
    }

    /**
     * Inserts created products, then moves each changed product's row once (its quantities by the sum of its
     * changes, to the last version) in one statement, then changes the reservation rows in the events' order; all
     * of it queued, to reach PostgreSQL in one round trip.
     */
    @Override
    public void applyAll(List<EventEnvelope<Object>> events, ViewWrites writes) {
        Map<UUID, ProductChange> products = new LinkedHashMap<>();
        List<ReservationChange> reservations = new ArrayList<>();
        for (EventEnvelope<Object> event : events) {
            Timestamp at = Timestamp.from(event.occurredAt());
            switch (event.payload()) {
                case ProductCreated created -> insert(writes, created, event.version(), at);
                case ProductStockReserved reserved -> {
                    products.computeIfAbsent(reserved.productId(), ProductChange::new)
                            .add(0, reserved.quantity(), event);
                    reservations.add(new Reserve(
                            reserved.productId(),
                            reserved.orderId(),
                            reserved.quantity(),
                            reserved.channel().name(),
                            at));
                }
                case ProductStockReleased released -> {
                    products.computeIfAbsent(released.productId(), ProductChange::new)
                            .add(0, -released.quantity(), event);
                    reservations.add(new Release(released.productId(), released.orderId(), released.quantity(), at));
                }
                case ProductStockReplenished replenished ->
                    products.computeIfAbsent(replenished.productId(), ProductChange::new)
                            .add(replenished.quantity(), 0, event);
                default -> {
                    // Reservation-stream events and consumed events are not part of this view.
                }
            }
        }
        if (!products.isEmpty()) {
            updateProducts(writes, products.values());
        }
        changeReservations(writes, reservations);
    }

    private void insert(ViewWrites writes, ProductCreated created, long version, Timestamp at) {
        writes.update(
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
                version,
                at,
                at);
        cache.invalidateAfterCommit(created.productId().toString());
    }

    private void updateProducts(ViewWrites writes, Collection<ProductChange> changes) {
        if (changes.size() == 1) {
            // One product (an API call, a batch on one product): the scalar statement, cheaper than the array form.
            ProductChange change = changes.iterator().next();
            writes.update(
                    changed -> requireOne(changed, "product " + change.productId),
                    "update product_view set quantity_on_hand = quantity_on_hand + ?,"
                            + " quantity_reserved = quantity_reserved + ?, version = ?, updated_at = ?"
                            + " where product_id = ?",
                    change.onHandDelta,
                    change.reservedDelta,
                    change.version,
                    Timestamp.from(change.at),
                    change.productId);
            cache.invalidateAfterCommit(change.productId.toString());
            return;
        }
        int size = changes.size();
        UUID[] ids = new UUID[size];
        Integer[] onHand = new Integer[size];
        Integer[] reserved = new Integer[size];
        Long[] versions = new Long[size];
        String[] times = new String[size];
        int i = 0;
        for (ProductChange change : changes) {
            ids[i] = change.productId;
            onHand[i] = change.onHandDelta;
            reserved[i] = change.reservedDelta;
            versions[i] = change.version;
            times[i] = change.at.toString();
            i++;
        }
        // Instants go as ISO-8601 text with their offset: no session time zone can shift them.
        writes.update(
                changed -> {
                    if (changed != size) {
                        throw new IllegalStateException("product view out of step with the event store: no row for"
                                + " one of " + Arrays.toString(ids));
                    }
                },
                "update product_view p set quantity_on_hand = p.quantity_on_hand + u.on_hand,"
                        + " quantity_reserved = p.quantity_reserved + u.reserved, version = u.version,"
                        + " updated_at = u.at::timestamptz"
                        + " from unnest(?::uuid[], ?::int[], ?::int[], ?::bigint[], ?::text[])"
                        + " as u (product_id, on_hand, reserved, version, at) where p.product_id = u.product_id",
                new SqlArray("uuid", ids),
                new SqlArray("int4", onHand),
                new SqlArray("int4", reserved),
                new SqlArray("int8", versions),
                new SqlArray("text", times));
        changes.forEach(change -> cache.invalidateAfterCommit(change.productId.toString()));
    }

    /**
     * Queues the reservation changes in order, each run of one kind as one statement on arrays ({@link #RESERVE_ALL},
     * {@link #RELEASE_ALL}) where it can be, else a statement each.
     */
    private static void changeReservations(ViewWrites writes, List<ReservationChange> changes) {
        int from = 0;
        while (from < changes.size()) {
            boolean reserve = changes.get(from) instanceof Reserve;
            int to = from;
            while (to < changes.size() && (changes.get(to) instanceof Reserve) == reserve) {
                to++;
            }
            List<ReservationChange> run = changes.subList(from, to);
            if (run.size() == 1 || !distinctPairs(run)) {
                run.forEach(change -> change.queue(writes));
            } else if (reserve) {
                reserveAll(writes, run);
            } else {
                releaseAll(writes, run);
            }
            from = to;
        }
    }

    /** Whether no two changes of {@code run} are of the same product and order: one statement changes a row once. */
    private static boolean distinctPairs(List<ReservationChange> run) {
        Set<List<UUID>> pairs = new HashSet<>();
        for (ReservationChange change : run) {
            if (!pairs.add(List.of(change.productId(), change.orderId()))) {
                return false;
            }
        }
        return true;
    }

    /** Inserts a run of reservations (a saga batch's: one per line of each order) in one statement. */
    private static void reserveAll(ViewWrites writes, List<ReservationChange> run) {
        int size = run.size();
        UUID[] products = new UUID[size];
        UUID[] orders = new UUID[size];
        Integer[] quantities = new Integer[size];
        String[] sources = new String[size];
        String[] times = new String[size];
        for (int i = 0; i < size; i++) {
            Reserve reserve = (Reserve) run.get(i);
            products[i] = reserve.productId();
            orders[i] = reserve.orderId();
            quantities[i] = reserve.quantity();
            sources[i] = reserve.source();
            // Instants go as ISO-8601 text with their offset, as in updateProducts.
            times[i] = reserve.at().toInstant().toString();
        }
        writes.update(
                changed -> requireAll(changed, size, "stock reservations"),
                RESERVE_ALL,
                new SqlArray("uuid", products),
                new SqlArray("uuid", orders),
                new SqlArray("int4", quantities),
                new SqlArray("text", sources),
                new SqlArray("text", times));
    }

    /** Gives back a run of reservations (a saga batch's releases) in one statement; every row must be there. */
    private static void releaseAll(ViewWrites writes, List<ReservationChange> run) {
        int size = run.size();
        UUID[] products = new UUID[size];
        UUID[] orders = new UUID[size];
        Integer[] quantities = new Integer[size];
        String[] times = new String[size];
        for (int i = 0; i < size; i++) {
            Release release = (Release) run.get(i);
            products[i] = release.productId();
            orders[i] = release.orderId();
            quantities[i] = release.quantity();
            times[i] = release.at().toInstant().toString();
        }
        writes.update(
                changed -> requireAll(changed, size, "stock reservations released"),
                RELEASE_ALL,
                new SqlArray("uuid", products),
                new SqlArray("uuid", orders),
                new SqlArray("int4", quantities),
                new SqlArray("text", times));
    }

    private static void requireAll(int changed, int size, String what) {
        if (changed != size) {
            throw new IllegalStateException(
                    what + " out of step with the event store: " + changed + " rows for " + size);
        }
    }

    private static void requireOne(int changed, String what) {
        if (changed != 1) {
            throw new IllegalStateException("product view out of step with the event store: no row for " + what);
        }
    }

    /** What the events of one append do to one product's row. */
    private static final class ProductChange {
        final UUID productId;
        int onHandDelta;
        int reservedDelta;
        long version;
        Instant at;

        ProductChange(UUID productId) {
            this.productId = productId;
        }

        void add(int onHand, int reserved, EventEnvelope<Object> event) {
            onHandDelta += onHand;
            reservedDelta += reserved;
            if (event.version() > version) {
                version = event.version();
                at = event.occurredAt();
            }
        }
    }

    /** A change of one {@code stock_reservation} row. */
    private sealed interface ReservationChange permits Reserve, Release {
        UUID productId();

        UUID orderId();

        /** Queues the change as a statement of its own. */
        void queue(ViewWrites writes);
    }

    /** An order's reservation of a product: inserted, or added to the row the order already has. */
    private record Reserve(UUID productId, UUID orderId, int quantity, String source, Timestamp at)
            implements ReservationChange {
        @Override
        public void queue(ViewWrites writes) {
            writes.update(RESERVE, productId, orderId, quantity, source, at, at);
        }
    }

    /** Part or all of an order's reservation given back; its row must exist. */
    private record Release(UUID productId, UUID orderId, int quantity, Timestamp at) implements ReservationChange {
        @Override
        public void queue(ViewWrites writes) {
            writes.update(
                    changed -> requireOne(changed, "reservation of order " + orderId + " on " + productId),
                    RELEASE,
                    quantity,
                    quantity,
                    quantity,
                    at,
                    productId,
                    orderId);
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from stock_reservation");
        jdbc.update("delete from product_view");
        cache.clear();
    }
}
