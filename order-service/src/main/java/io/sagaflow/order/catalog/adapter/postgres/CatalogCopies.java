package io.sagaflow.order.catalog.adapter.postgres;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The order service's copies of customers (status) and products (price), in PostgreSQL. */
@Repository
public class CatalogCopies {

    /** A product as the order service knows it. */
    public record ProductCopy(UUID productId, String sku, String name, BigDecimal price) {}

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

    public Optional<String> customerStatus(UUID customerId) {
        return jdbc
                .queryForList("select status from customer_copy where customer_id = ?", String.class, customerId)
                .stream()
                .findFirst();
    }

    public Map<UUID, ProductCopy> products(Collection<UUID> productIds) {
        List<ProductCopy> found = jdbc.query(
                "select product_id, sku, name, price from product_copy where product_id = any(?)",
                (rs, row) -> new ProductCopy(
                        rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getBigDecimal(4)),
                (Object) productIds.toArray(UUID[]::new));
        return found.stream().collect(Collectors.toMap(ProductCopy::productId, Function.identity()));
    }
}
