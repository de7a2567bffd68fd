package io.sagaflow.payment.payments.adapter.postgres;

import io.sagaflow.payment.payments.application.CustomerCredit;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * {@link CustomerCredit} on the {@code customer_credit} table: {@code select … for update} of the customer's row,
 * which is created (empty) the first time. A racing first insert of the same customer waits for the other's commit
 * and then finds the row, so the lock is taken in every case.
 */
@Repository
class JdbcCustomerCredit implements CustomerCredit {

    private static final String LOCK =
            "select captured - refunded from customer_credit where customer_id = ? for update";

    private final JdbcTemplate jdbc;

    JdbcCustomerCredit(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public BigDecimal lockOutstanding(UUID customerId) {
        List<BigDecimal> outstanding = jdbc.queryForList(LOCK, BigDecimal.class, customerId);
        if (outstanding.isEmpty()) {
            jdbc.update("insert into customer_credit (customer_id) values (?) on conflict do nothing", customerId);
            outstanding = jdbc.queryForList(LOCK, BigDecimal.class, customerId);
        }
        return Money.of(outstanding.getFirst());
    }
}
