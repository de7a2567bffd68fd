package io.sagaflow.inventory.audit.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
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
            assertThat(jdbc.queryForObject("show plan_cache_mode", String.class))
                    .isEqualTo("force_generic_plan");

            for (boolean after : List.of(true, false)) {
                jdbc.execute("prepare page as " + numbered(JdbcStockLevels.reservationsPage(after)));
                String plan = String.join(
                        "\n",
                        jdbc.queryForList(
                                after
                                        ? "explain execute page('" + new UUID(0, 0) + "', 1000)"
                                        : "explain execute page(1000)",
                                String.class));
                jdbc.execute("deallocate page");

                assertThat(plan).as(plan).doesNotContain("Seq Scan");
            }
        });
    }

    /** JDBC's {@code ?} placeholders as a prepared statement's {@code $1, $2}. */
    private static String numbered(String sql) {
        StringBuilder numbered = new StringBuilder();
        int next = 1;
        for (char c : sql.toCharArray()) {
            numbered.append(c == '?' ? "$" + next++ : String.valueOf(c));
        }
        return numbered.toString();
    }
}
