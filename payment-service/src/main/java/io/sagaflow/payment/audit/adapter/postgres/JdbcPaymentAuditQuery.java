package io.sagaflow.payment.audit.adapter.postgres;

import io.sagaflow.payment.audit.application.PaymentAudit;
import io.sagaflow.payment.audit.application.PaymentAudit.OrderMoney;
import io.sagaflow.payment.audit.application.PaymentAuditQuery;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** {@link PaymentAuditQuery} summed from {@code payment_view} in one statement (one consistent snapshot). */
@Repository
class JdbcPaymentAuditQuery implements PaymentAuditQuery {

    private final JdbcTemplate jdbc;

    JdbcPaymentAuditQuery(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public PaymentAudit audit() {
        List<OrderMoney> orders = jdbc.query(
                "select order_id,"
                        + " coalesce(sum(amount) filter (where status in ('CAPTURED', 'REFUNDED')), 0) as captured,"
                        + " coalesce(sum(refunded_amount), 0) as refunded"
                        + " from payment_view where status <> 'PENDING' group by order_id order by order_id",
                (rs, row) -> new OrderMoney(
                        rs.getObject("order_id", UUID.class),
                        Money.of(rs.getBigDecimal("captured")),
                        Money.of(rs.getBigDecimal("refunded"))));
        BigDecimal captured = orders.stream().map(OrderMoney::captured).reduce(Money.ZERO, BigDecimal::add);
        BigDecimal refunded = orders.stream().map(OrderMoney::refunded).reduce(Money.ZERO, BigDecimal::add);
        return new PaymentAudit(orders, captured, refunded);
    }
}
