package io.sagaflow.payment.payments.adapter.postgres;

import io.sagaflow.payment.payments.application.PaymentStatus;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.application.PaymentViews;
import io.sagaflow.payment.payments.domain.Money;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** {@link PaymentViews} on the {@code payment_view} table. */
@Repository
class JdbcPaymentViews implements PaymentViews {

    private static final String COLUMNS = "payment_id, order_id, customer_id, amount, currency, method, status,"
            + " decline_code, reason, created_at, updated_at, refunded_amount";

    private final JdbcTemplate jdbc;

    JdbcPaymentViews(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<PaymentView> find(UUID paymentId) {
        return jdbc
                .query(
                        "select " + COLUMNS + " from payment_view where payment_id = ? and status <> 'PENDING'",
                        JdbcPaymentViews::view,
                        paymentId)
                .stream()
                .findFirst();
    }

    @Override
    public List<PaymentView> findByOrder(UUID orderId) {
        return jdbc.query(
                "select " + COLUMNS + " from payment_view where order_id = ? and status <> 'PENDING'"
                        + " order by created_at, payment_id",
                JdbcPaymentViews::view,
                orderId);
    }

    private static PaymentView view(ResultSet rs, int row) throws SQLException {
        return new PaymentView(
                rs.getObject("payment_id", UUID.class),
                rs.getObject("order_id", UUID.class),
                rs.getObject("customer_id", UUID.class),
                Money.of(rs.getBigDecimal("amount")),
                rs.getString("currency"),
                rs.getString("method"),
                PaymentStatus.valueOf(rs.getString("status")),
                rs.getString("decline_code"),
                rs.getString("reason"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(),
                Money.of(rs.getBigDecimal("refunded_amount")));
    }
}
