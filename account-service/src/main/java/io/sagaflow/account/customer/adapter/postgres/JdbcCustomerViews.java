package io.sagaflow.account.customer.adapter.postgres;

import io.sagaflow.account.customer.application.CustomerView;
import io.sagaflow.account.customer.application.CustomerViews;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@link CustomerViews} on the {@code customer_view} table. */
public final class JdbcCustomerViews implements CustomerViews {

    private static final String COLUMNS =
            "customer_id, email, name, address, phone, status, created_at, updated_at from customer_view";

    private final JdbcTemplate jdbc;

    public JdbcCustomerViews(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<CustomerView> find(UUID customerId) {
        return jdbc.query("select " + COLUMNS + " where customer_id = ?", JdbcCustomerViews::view, customerId).stream()
                .findFirst();
    }

    @Override
    public List<CustomerView> newest(int limit) {
        return jdbc.query(
                "select " + COLUMNS + " order by created_at desc, customer_id desc limit ?",
                JdbcCustomerViews::view,
                limit);
    }

    private static CustomerView view(ResultSet rs, int row) throws SQLException {
        return new CustomerView(
                rs.getObject("customer_id", UUID.class),
                rs.getString("email"),
                rs.getString("name"),
                rs.getString("address"),
                rs.getString("phone"),
                rs.getString("status"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }
}
