package io.sagaflow.payment.audit.adapter.postgres;

import io.sagaflow.payment.audit.application.PaymentAudit;
import io.sagaflow.payment.audit.application.PaymentAudit.OrderMoney;
import io.sagaflow.payment.audit.application.PaymentAuditQuery;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link PaymentAuditQuery} summed from {@code payment_view} by PostgreSQL: the page is grouped and limited along the
 * {@code payment_view_by_order} index (keyset pagination, so a page costs its own rows, not the table's), the totals
 * are aggregates; both are read in one repeatable-read transaction, so they belong to the same instant.
 */
@Repository
class JdbcPaymentAuditQuery implements PaymentAuditQuery {

    private static final String PER_ORDER = "select order_id,"
            + " coalesce(sum(amount) filter (where status in ('CAPTURED', 'REFUNDED')), 0) as captured,"
            + " coalesce(sum(refunded_amount), 0) as refunded"
            + " from payment_view where status <> 'PENDING'";

    private static final String GROUPED = " group by order_id order by order_id limit ?";

    private static final RowMapper<OrderMoney> ORDER_MONEY = (rs, row) -> new OrderMoney(
            rs.getObject("order_id", UUID.class),
            Money.of(rs.getBigDecimal("captured")),
            Money.of(rs.getBigDecimal("refunded")));

    private final JdbcTemplate jdbc;
    private final TransactionTemplate snapshot;

    JdbcPaymentAuditQuery(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.snapshot = new TransactionTemplate(transactionManager);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        snapshot.setReadOnly(true);
    }

    @Override
    public PaymentAudit audit(Optional<UUID> after, int limit, boolean totals) {
        return snapshot.execute(status -> {
            List<OrderMoney> orders = after.isPresent()
                    ? jdbc.query(PER_ORDER + " and order_id > ?" + GROUPED, ORDER_MONEY, after.get(), limit)
                    : jdbc.query(PER_ORDER + GROUPED, ORDER_MONEY, limit);
            if (!totals) {
                return new PaymentAudit(orders, null, null);
            }
            BigDecimal[] sums = jdbc.queryForObject(
                    "select coalesce(sum(amount) filter (where status in ('CAPTURED', 'REFUNDED')), 0),"
                            + " coalesce(sum(refunded_amount), 0)"
                            + " from payment_view where status <> 'PENDING'",
                    (rs, row) -> new BigDecimal[] {rs.getBigDecimal(1), rs.getBigDecimal(2)});
            return new PaymentAudit(orders, Money.of(sums[0]), Money.of(sums[1]));
        });
    }
}
