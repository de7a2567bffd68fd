package io.sagaflow.inventory.product.adapter.postgres;

import io.sagaflow.inventory.product.application.LockedProduct;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.application.ProductViews;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductStatus;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** {@link ProductViews} on the {@code product_view} and {@code stock_reservation} tables. */
@Repository
public class JdbcProductViews implements ProductViews {

    private static final String VIEW_COLUMNS = "product_id, sku, name, description, price, quantity_on_hand,"
            + " quantity_reserved, category, status, created_at, updated_at";

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
        UUID[] ids = productIds.stream().filter(Objects::nonNull).distinct().toArray(UUID[]::new);
        if (ids.length == 0) {
            return Map.of();
        }
        // "order by" below "for update": rows are locked as they leave the sort, so always in ascending id order.
        List<LockedRow> rows = jdbc.query(
                "select product_id, status, quantity_on_hand, quantity_reserved, version from product_view"
                        + " where product_id = any(?) order by product_id for update",
                ps -> ps.setArray(1, uuidArray(ps.getConnection(), ids)),
                (rs, row) -> new LockedRow(
                        rs.getObject("product_id", UUID.class),
                        ProductStatus.valueOf(rs.getString("status")),
                        rs.getInt("quantity_on_hand"),
                        rs.getInt("quantity_reserved"),
                        rs.getLong("version")));
        UUID[] orders = orderIds.stream().filter(Objects::nonNull).distinct().toArray(UUID[]::new);
        // Read after the locks are granted: reservations only change under their product's lock, so this is current.
        Map<UUID, Map<UUID, Integer>> held = orders.length == 0 || rows.isEmpty() ? Map.of() : heldFor(orders, ids);
        Map<UUID, LockedProduct> locked = new LinkedHashMap<>();
        for (LockedRow row : rows) {
            Product state = new Product(
                    row.productId(),
                    row.status(),
                    row.quantityOnHand(),
                    row.quantityReserved(),
                    held.getOrDefault(row.productId(), Map.of()));
            locked.put(row.productId(), new LockedProduct(state, row.version()));
        }
        return locked;
    }

    /** What each of {@code orders} holds, by product. */
    private Map<UUID, Map<UUID, Integer>> heldFor(UUID[] orders, UUID[] ids) {
        Map<UUID, Map<UUID, Integer>> held = new HashMap<>();
        jdbc.query(
                "select product_id, order_id, quantity from stock_reservation"
                        + " where order_id = any(?) and active and product_id = any(?)",
                ps -> {
                    ps.setArray(1, uuidArray(ps.getConnection(), orders));
                    ps.setArray(2, uuidArray(ps.getConnection(), ids));
                },
                rs -> {
                    held.computeIfAbsent(rs.getObject(1, UUID.class), product -> new HashMap<>())
                            .put(rs.getObject(2, UUID.class), rs.getInt(3));
                });
        return held;
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
            UUID productId, ProductStatus status, int quantityOnHand, int quantityReserved, long version) {}
}
