package io.sagaflow.payment.ordersaga.adapter.postgres;

import io.sagaflow.payment.ordersaga.application.OrderLock;
import java.util.Collection;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;

/**
 * {@link OrderLock} as a PostgreSQL transaction-level advisory lock in this service's own key space. Two orders may
 * share a key (it is a 32-bit hash): they then merely wait for each other.
 */
@Component
class PostgresOrderLock implements OrderLock {

    /** The advisory lock key space of the saga's orders ("PAYO"). */
    private static final int KEY_SPACE = 0x5041594F;

    private final JdbcTemplate jdbc;

    PostgresOrderLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void lockUntilCommit(UUID orderId) {
        jdbc.query("select pg_advisory_xact_lock(?, ?)", (RowCallbackHandler) rs -> {}, KEY_SPACE, orderId.hashCode());
    }

    @Override
    public void lockUntilCommit(Collection<UUID> orderIds) {
        Integer[] keys =
                orderIds.stream().map(UUID::hashCode).distinct().sorted().toArray(Integer[]::new);
        if (keys.length == 0) {
            return;
        }
        // A volatile function in the select list runs after the sort: the locks are taken in ascending key order.
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement(
                            "select pg_advisory_xact_lock(?, k) from unnest(?::int[]) as l (k) order by k");
                    statement.setInt(1, KEY_SPACE);
                    statement.setArray(2, connection.createArrayOf("int4", keys));
                    return statement;
                },
                (RowCallbackHandler) rs -> {});
    }
}
