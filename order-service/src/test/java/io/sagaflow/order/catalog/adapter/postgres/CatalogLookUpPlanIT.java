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
 * The caches of the copies load a missing product or customer by its key, not by scanning the table, under the
 * generic plan (ADR 0029, 0061): the copies grow with the catalogue and the customers. A small table may be scanned,
 * which is cheaper there (PostgreSQL 15 does below about 2 000 rows).
 */
@SagaflowIntegrationTest
class CatalogLookUpPlanIT {

    private static final int ROWS = 20_000;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void theLoadsUseThePrimaryKeysUnderTheGenericPlan() {
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

            String products = GenericPlans.explain(
                    jdbc, CatalogCopies.PRODUCTS_BY_ID, "'{00000000-0000-0000-0000-000000000001}'::uuid[]");
            String customers = GenericPlans.explain(
                    jdbc, CatalogCopies.CUSTOMERS_BY_ID, "'{00000000-0000-0000-0000-000000000002}'::uuid[]");

            assertThat(products).as(products).doesNotContain("Seq Scan").contains("Index Cond: (product_id = ANY");
            assertThat(customers).as(customers).doesNotContain("Seq Scan").contains("Index Cond: (customer_id = ANY");
        });
    }
}
