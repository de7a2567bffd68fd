package io.sagaflow.payment.ordersaga.adapter.postgres;

import io.sagaflow.payment.ordersaga.application.OrderLock;
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
}
