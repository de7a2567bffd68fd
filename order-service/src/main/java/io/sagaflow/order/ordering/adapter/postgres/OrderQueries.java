package io.sagaflow.order.ordering.adapter.postgres;

import io.sagaflow.order.ordering.application.OrderView;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Reads {@code order_view}. */
public class OrderQueries {

    private static final String COLUMNS = "order_id, customer_id, line_items::text, subtotal, tax, total,"
            + " shipping_address, status, cancel_code, cancel_reason, cancelled_by, created_at, updated_at";
    private static final TypeReference<List<OrderView.LineItem>> LINES = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public OrderQueries(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public Optional<OrderView> find(UUID orderId) {
        return jdbc.query("select " + COLUMNS + " from order_view where order_id = ?", this::row, orderId).stream()
                .findFirst();
    }

    public List<OrderView> ofCustomer(UUID customerId, int limit) {
        return jdbc.query(
                "select " + COLUMNS + " from order_view where customer_id = ? order by created_at desc limit ?",
                this::row,
                customerId,
                limit);
    }

    /** Orders by status, for the audit: {@code status → count}. */
    public List<OrderView> withStatus(String status, int limit) {
        return jdbc.query(
                "select " + COLUMNS + " from order_view where status = ? order by created_at desc limit ?",
                this::row,
                status,
                limit);
    }

    private OrderView row(ResultSet rs, int row) throws SQLException {
        UUID orderId = rs.getObject(1, UUID.class);
        return new OrderView(
                orderId,
                orderId,
                rs.getObject(2, UUID.class),
                json.readValue(rs.getString(3), LINES),
                rs.getBigDecimal(4),
                rs.getBigDecimal(5),
                rs.getBigDecimal(6),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                rs.getString(10),
                rs.getString(11),
                rs.getTimestamp(12).toInstant(),
                rs.getTimestamp(13).toInstant());
    }
}
