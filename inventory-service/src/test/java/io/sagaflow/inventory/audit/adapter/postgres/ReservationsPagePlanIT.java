package io.sagaflow.inventory.audit.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.postgres.GenericPlans;
import io.sagaflow.inventory.InventoryHttp;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A page of the audit's reservations costs its own rows, not the table's, under the generic plan every connection
 * of ours uses (ADR 0029): otherwise an audit's walk over all pages grows with the square of the orders.
 */
@SagaflowIntegrationTest
class ReservationsPagePlanIT {

    private static final int ROWS = 50_000;

    @Value("${local.server.port}")
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void aPageFindsItsOrdersReservationsThroughTheIndexUnderTheGenericPlan() {
        String product = new InventoryHttp(port).createProduct("plan-" + UUID.randomUUID(), 10);
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            // Rolled back at the end: the rows would upset the audits of other tests, which the statistics need not.
            status.setRollbackOnly();
            jdbc.update(
                    "insert into stock_reservation (product_id, order_id, quantity, source, active, reserved_at,"
                            + " updated_at) select ?::uuid, gen_random_uuid(), 1, 'API', true, now(), now()"
                            + " from generate_series(1, ?)",
                    product,
                    ROWS);
            jdbc.execute("analyze stock_reservation");

            for (boolean after : List.of(true, false)) {
                String sql = JdbcStockLevels.reservationsPage(after);
                String plan = after
                        ? GenericPlans.explain(jdbc, sql, "'" + new UUID(0, 0) + "'", "1000")
                        : GenericPlans.explain(jdbc, sql, "1000");

                assertThat(plan).as(plan).doesNotContain("Seq Scan");
            }
        });
    }
}
