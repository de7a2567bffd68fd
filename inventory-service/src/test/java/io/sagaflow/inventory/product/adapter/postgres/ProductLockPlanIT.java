package io.sagaflow.inventory.product.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.postgres.GenericPlans;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Locking the products of a reservation reads their rows, not the catalogue's, under the generic plan (ADR 0029):
 * every reservation takes this lock, so a sequential scan would make each one cost the size of the catalogue. A
 * small table may be scanned, which is cheaper there (PostgreSQL 15 does below about 2 000 rows).
 */
@SagaflowIntegrationTest
class ProductLockPlanIT {

    private static final int PRODUCTS = 20_000;
    private static final String ARRAY = "'{00000000-0000-0000-0000-000000000001}'::uuid[]";

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void theLockAndTheHeldUnitsUseTheirIndexesUnderTheGenericPlan() {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            // Rolled back at the end: the rows would upset the audits of other tests.
            status.setRollbackOnly();
            jdbc.update(
                    "insert into product_view (product_id, sku, name, price, status, quantity_on_hand,"
                            + " quantity_reserved, version, created_at, updated_at) select gen_random_uuid(),"
                            + " 'plan-' || n, 'Plan', 1, 'ACTIVE', 10, 0, 1, now(), now()"
                            + " from generate_series(1, ?) as n",
                    PRODUCTS);
            jdbc.execute("analyze product_view");
            jdbc.execute("analyze stock_reservation");

            String lock = GenericPlans.explain(jdbc, JdbcProductViews.lockStatement("product_id, version"), ARRAY);
            String held = GenericPlans.explain(jdbc, JdbcProductViews.HELD, ARRAY, ARRAY);

            assertThat(lock).as(lock).doesNotContain("Seq Scan").contains("Index Cond: (product_id = ANY");
            assertThat(held).as(held).doesNotContain("Seq Scan").contains("Index Cond: (order_id = ANY");
        });
    }
}
