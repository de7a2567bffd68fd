package io.sagaflow.order.catalog.adapter.postgres;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The order service's copies of customers (status) and products (price), in PostgreSQL. */
@Repository
public class CatalogCopies {

    /** A product as the order service knows it. */
    public record ProductCopy(UUID productId, String sku, String name, BigDecimal price) {}

    /** The products of an array and one customer, in one statement (see {@link #lookUp}). */
    static final String LOOK_UP =
            "select product_id, sku, name, price, null as status from product_copy where product_id = any(?)"
                    + " union all select customer_id, null, null, null, status from customer_copy"
                    + " where customer_id = ?";

    private final JdbcTemplate jdbc;

    public CatalogCopies(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void productCreated(UUID productId, String sku, String name, BigDecimal price) {
        jdbc.update(
                "insert into product_copy (product_id, sku, name, price) values (?, ?, ?, ?)"
                        + " on conflict (product_id) do update set sku = excluded.sku, name = excluded.name,"
                        + " price = excluded.price",
                productId,
                sku,
                name,
                price);
    }

    public void customerStatus(UUID customerId, String status) {
        jdbc.update(
                "insert into customer_copy (customer_id, status) values (?, ?)"
                        + " on conflict (customer_id) do update set status = excluded.status",
                customerId,
                status);
    }

    /**
     * What the copies know of {@code customerId} and {@code productIds}, read in one statement: placing an order
     * checks both, and one round trip instead of two is one PostgreSQL transaction less per order.
     */
    public Known lookUp(UUID customerId, Collection<UUID> productIds) {
        Map<UUID, ProductCopy> products = new HashMap<>();
        String[] status = {null};
        jdbc.query(
                LOOK_UP,
                rs -> {
                    String customerStatus = rs.getString(5);
                    if (customerStatus != null) {
                        status[0] = customerStatus;
                    } else {
                        UUID productId = rs.getObject(1, UUID.class);
                        products.put(
                                productId,
                                new ProductCopy(productId, rs.getString(2), rs.getString(3), rs.getBigDecimal(4)));
                    }
                },
                productIds.toArray(UUID[]::new),
                customerId);
        return new Known(Optional.ofNullable(status[0]), products);
    }

    /** A customer's status, if copied, and the copied products among those asked for. */
    public record Known(Optional<String> customerStatus, Map<UUID, ProductCopy> products) {}
}
