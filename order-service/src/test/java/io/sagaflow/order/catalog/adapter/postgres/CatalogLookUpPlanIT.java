package io.sagaflow.order.catalog.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.postgres.GenericPlans;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Placing an order looks its products and its customer up in the copies by their keys, not by scanning them, under
 * the generic plan (ADR 0029): every order does it, and the copies grow with the catalogue and the customers. A
 * small table may be scanned, which is cheaper there (PostgreSQL 15 does below about 2 000 rows).
 */
@SagaflowIntegrationTest
class CatalogLookUpPlanIT {

    private static final int ROWS = 20_000;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void theLookUpUsesBothPrimaryKeysUnderTheGenericPlan() {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            // Rolled back at the end: the rows would upset the audits of other tests.
            status.setRollbackOnly();
            jdbc.update(
                    "insert into product_copy (product_id, sku, name, price) select gen_random_uuid(),"
                            + " 'plan-' || n, 'Plan', 1 from generate_series(1, ?) as n",
                    ROWS);
            jdbc.update(
                    "insert into customer_copy (customer_id, status) select gen_random_uuid(), 'ACTIVE'"
                            + " from generate_series(1, ?)",
                    ROWS);
            jdbc.execute("analyze product_copy");
            jdbc.execute("analyze customer_copy");

            String plan = GenericPlans.explain(
                    jdbc,
                    CatalogCopies.LOOK_UP,
                    "'{00000000-0000-0000-0000-000000000001}'::uuid[]",
                    "'00000000-0000-0000-0000-000000000002'");

            assertThat(plan)
                    .as(plan)
                    .doesNotContain("Seq Scan")
                    .contains("Index Cond: (product_id = ANY", "Index Cond: (customer_id = $2)");
        });
    }
}
