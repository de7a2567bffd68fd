package io.sagaflow.inventory.product.adapter.postgres;

import io.sagaflow.inventory.product.application.LockedProduct;
import io.sagaflow.inventory.product.application.LockedView;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.application.ProductViews;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductStatus;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/** {@link ProductViews} on the {@code product_view} and {@code stock_reservation} tables. */
@Repository
public class JdbcProductViews implements ProductViews {

    private static final String VIEW_COLUMNS = "product_id, sku, name, description, price, quantity_on_hand,"
            + " quantity_reserved, category, status, created_at, updated_at";

    /** What the orders hold of the locked products, read once the locks are granted. */
    static final String HELD = "select product_id, order_id, quantity from stock_reservation"
            + " where order_id = any(?) and active and product_id = any(?)";

    private final JdbcTemplate jdbc;

    public JdbcProductViews(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<ProductView> find(UUID productId) {
        return jdbc
                .query(
                        "select " + VIEW_COLUMNS + " from product_view where product_id = ?",
                        JdbcProductViews::view,
                        productId)
                .stream()
                .findFirst();
    }

    @Override
    public List<ProductView> list(int limit) {
        return jdbc.query(
                "select " + VIEW_COLUMNS + " from product_view order by created_at, product_id limit ?",
                JdbcProductViews::view,
                limit);
    }

    @Override
    public boolean skuExists(String sku) {
        return Boolean.TRUE.equals(
                jdbc.queryForObject("select exists (select 1 from product_view where sku = ?)", Boolean.class, sku));
    }

    @Override
    public Map<UUID, LockedProduct> lock(Collection<UUID> productIds, Collection<UUID> orderIds) {
        Locked<LockedRow> rows = lock(
                "product_id, status, quantity_on_hand, quantity_reserved, version",
                (rs, row) -> lockedRow(rs),
                productIds,
                orderIds);
        Map<UUID, LockedProduct> locked = new LinkedHashMap<>();
        for (LockedRow row : rows.rows()) {
            locked.put(row.productId(), row.locked(rows.held()));
        }
        return locked;
    }

    @Override
    public Map<UUID, LockedView> lockWithViews(Collection<UUID> productIds, Collection<UUID> orderIds) {
        Locked<Map.Entry<LockedRow, ProductView>> rows = lock(
                VIEW_COLUMNS + ", version", (rs, row) -> Map.entry(lockedRow(rs), view(rs, row)), productIds, orderIds);
        Map<UUID, LockedView> locked = new LinkedHashMap<>();
        for (Map.Entry<LockedRow, ProductView> row : rows.rows()) {
            locked.put(row.getKey().productId(), new LockedView(row.getKey().locked(rows.held()), row.getValue()));
        }
        return locked;
    }

    /**
     * Locks the rows of {@code productIds}, maps each with {@code mapper}, and reads what each of {@code orderIds}
     * holds of them. The reservations must be read after the locks are granted (they change only
     * under their product's lock, so they are current then), and a statement sees what was committed when it
     * started: so they are read by a second statement, sent in the same round trip as the first (pgjdbc sends both,
     * then one Sync), which PostgreSQL starts once the first statement holds all its locks.
     */
    private <T> Locked<T> lock(
            String columns, RowMapper<T> mapper, Collection<UUID> productIds, Collection<UUID> orderIds) {
        UUID[] ids = productIds.stream().filter(Objects::nonNull).distinct().toArray(UUID[]::new);
        if (ids.length == 0) {
            return new Locked<>(List.of(), Map.of());
        }
        UUID[] orders = orderIds.stream().filter(Objects::nonNull).distinct().toArray(UUID[]::new);
        String lock = lockStatement(columns);
        return jdbc.execute((ConnectionCallback<Locked<T>>) connection -> {
            try (PreparedStatement statement =
                    connection.prepareStatement(orders.length == 0 ? lock : lock + "; " + HELD)) {
                Array products = uuidArray(connection, ids);
                statement.setArray(1, products);
                if (orders.length > 0) {
                    statement.setArray(2, uuidArray(connection, orders));
                    statement.setArray(3, products);
                }
                statement.execute();
                List<T> rows = new ArrayList<>(ids.length);
                Map<UUID, Map<UUID, Integer>> held = new HashMap<>();
                try (ResultSet rs = statement.getResultSet()) {
                    while (rs.next()) {
                        rows.add(mapper.mapRow(rs, rows.size()));
                    }
                }
                if (orders.length > 0 && statement.getMoreResults()) {
                    try (ResultSet rs = statement.getResultSet()) {
                        while (rs.next()) {
                            held.computeIfAbsent(rs.getObject(1, UUID.class), product -> new HashMap<>())
                                    .put(rs.getObject(2, UUID.class), rs.getInt(3));
                        }
                    }
                }
                return new Locked<>(rows, held);
            }
        });
    }

    /** Locks the products of an array, reading {@code columns} of their rows. */
    static String lockStatement(String columns) {
        // "order by" below "for update": rows are locked as they leave the sort, so always in ascending id order.
        return "select " + columns + " from product_view where product_id = any(?) order by product_id for update";
    }

    /**
     * Locked rows, and what the orders the lock was taken for hold.
     *
     * @param held units held per order id, by product id
     */
    private record Locked<T>(List<T> rows, Map<UUID, Map<UUID, Integer>> held) {}

    private static LockedRow lockedRow(ResultSet rs) throws SQLException {
        return new LockedRow(
                rs.getObject("product_id", UUID.class),
                ProductStatus.valueOf(rs.getString("status")),
                rs.getInt("quantity_on_hand"),
                rs.getInt("quantity_reserved"),
                rs.getLong("version"));
    }

    private static Array uuidArray(Connection connection, UUID[] ids) throws SQLException {
        return connection.createArrayOf("uuid", ids);
    }

    private static ProductView view(ResultSet rs, int row) throws SQLException {
        int onHand = rs.getInt("quantity_on_hand");
        int reserved = rs.getInt("quantity_reserved");
        return new ProductView(
                rs.getObject("product_id", UUID.class),
                rs.getString("sku"),
                rs.getString("name"),
                rs.getString("description"),
                rs.getBigDecimal("price"),
                onHand,
                reserved,
                onHand - reserved,
                rs.getString("category"),
                rs.getString("status"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }

    private record LockedRow(
            UUID productId, ProductStatus status, int quantityOnHand, int quantityReserved, long version) {

        /** The row as a locked product, with what the orders of {@code held} hold of it. */
        LockedProduct locked(Map<UUID, Map<UUID, Integer>> held) {
            return new LockedProduct(
                    new Product(
                            productId,
                            status,
                            quantityOnHand,
                            quantityReserved,
                            held.getOrDefault(productId, Map.of())),
                    version);
        }
    }
}
