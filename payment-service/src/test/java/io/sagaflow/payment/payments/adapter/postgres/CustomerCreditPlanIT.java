package io.sagaflow.payment.payments.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.postgres.GenericPlans;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Locking the credit of a payment's customers reads their rows, not every customer's, under the generic plan
 * (ADR 0029): the table grows by a row with every customer who paid, and every payment takes this lock. A small
 * table may be scanned, which is cheaper there (PostgreSQL 15 does below about 2 000 rows).
 */
@SagaflowIntegrationTest
class CustomerCreditPlanIT {

    private static final int CUSTOMERS = 20_000;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void theLockUsesThePrimaryKeyUnderTheGenericPlan() {
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            // Rolled back at the end: the rows would upset the audits of other tests.
            status.setRollbackOnly();
            jdbc.update(
                    "insert into customer_credit (customer_id, captured) select gen_random_uuid(), 10"
                            + " from generate_series(1, ?)",
                    CUSTOMERS);
            jdbc.execute("analyze customer_credit");

            String plan = GenericPlans.explain(
                    jdbc, JdbcCustomerCredit.LOCK, "'{00000000-0000-0000-0000-000000000001}'::uuid[]");

            assertThat(plan).as(plan).doesNotContain("Seq Scan").contains("Index Cond: (customer_id = ANY");
        });
    }
}
