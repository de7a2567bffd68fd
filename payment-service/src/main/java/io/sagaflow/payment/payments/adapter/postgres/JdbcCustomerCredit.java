package io.sagaflow.payment.payments.adapter.postgres;

import io.sagaflow.payment.payments.application.CustomerCredit;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * {@link CustomerCredit} on the {@code customer_credit} table: {@code select … for update} of the customers' rows,
 * which are created (empty) the first time. A racing first insert of the same customer waits for the other's commit
 * and then finds the row, so the lock is taken in every case.
 */
@Repository
class JdbcCustomerCredit implements CustomerCredit {

    // "order by" below "for update": rows are locked as they leave the sort, so always in ascending id order.
    static final String LOCK = "select customer_id, captured - refunded from customer_credit"
            + " where customer_id = any(?) order by customer_id for update";

    private final JdbcTemplate jdbc;

    JdbcCustomerCredit(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public BigDecimal lockOutstanding(UUID customerId) {
        return lockOutstanding(List.of(customerId)).get(customerId);
    }

    @Override
    public Map<UUID, BigDecimal> lockOutstanding(Collection<UUID> customerIds) {
        UUID[] ids = customerIds.stream().distinct().toArray(UUID[]::new);
        if (ids.length == 0) {
            return Map.of();
        }
        Map<UUID, BigDecimal> outstanding = lock(ids);
        if (outstanding.size() < ids.length) {
            UUID[] missing = Arrays.stream(ids)
                    .filter(id -> !outstanding.containsKey(id))
                    .toArray(UUID[]::new);
            jdbc.update(connection -> {
                var statement = connection.prepareStatement("insert into customer_credit (customer_id)"
                        + " select id from unnest(?::uuid[]) as c (id) order by id on conflict do nothing");
                statement.setArray(1, connection.createArrayOf("uuid", missing));
                return statement;
            });
            outstanding.putAll(lock(missing));
        }
        return outstanding;
    }

    private Map<UUID, BigDecimal> lock(UUID[] ids) {
        Map<UUID, BigDecimal> outstanding = new HashMap<>();
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement(LOCK);
                    statement.setArray(1, connection.createArrayOf("uuid", ids));
                    return statement;
                },
                rs -> {
                    outstanding.put(rs.getObject(1, UUID.class), Money.of(rs.getBigDecimal(2)));
                });
        return outstanding;
    }
}
