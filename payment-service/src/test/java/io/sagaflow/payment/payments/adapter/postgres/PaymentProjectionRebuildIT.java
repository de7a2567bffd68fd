package io.sagaflow.payment.payments.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.projection.ProjectionRebuilder;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** The payment view and the credit totals are a function of the events: a rebuild by replay gives them back. */
@SagaflowIntegrationTest
class PaymentProjectionRebuildIT {

    @Autowired
    PaymentService payments;

    @Autowired
    PaymentProjection projection;

    @Autowired
    ProjectionRebuilder rebuilder;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aRebuildRestoresTheViewAndTheCreditTotals() {
        UUID customer = UUID.randomUUID();
        PaymentView captured = payments.create(payment(customer, "700.00"), EventMetadata.newFlow(), null);
        PaymentView refunded = payments.create(payment(customer, "300.00"), EventMetadata.newFlow(), null);
        PaymentView declined = payments.create(payment(customer, "10000.01"), EventMetadata.newFlow(), null);
        payments.refund(refunded.paymentId(), "returned", EventMetadata.newFlow());
        List<Map<String, Object>> viewBefore = rows(customer);
        Map<String, Object> creditBefore = credit(customer);

        long replayed = rebuilder.rebuild(projection);

        assertThat(replayed).isGreaterThanOrEqualTo(7);
        assertThat(rows(customer)).isEqualTo(viewBefore).hasSize(3);
        assertThat(credit(customer)).isEqualTo(creditBefore);
        assertThat((BigDecimal) creditBefore.get("outstanding")).isEqualByComparingTo("700.00");
        assertThat(payments.get(captured.paymentId())).hasValue(captured);
        assertThat(payments.get(declined.paymentId()).orElseThrow().declineCode())
                .isEqualTo("AMOUNT_ABOVE_LIMIT");
    }

    private static NewPayment payment(UUID customer, String amount) {
        return new NewPayment(UUID.randomUUID(), customer, Money.of(amount), null, null);
    }

    private List<Map<String, Object>> rows(UUID customer) {
        return jdbc.queryForList("select * from payment_view where customer_id = ? order by payment_id", customer);
    }

    private Map<String, Object> credit(UUID customer) {
        return jdbc.queryForMap(
                "select captured, refunded, captured - refunded as outstanding from customer_credit"
                        + " where customer_id = ?",
                customer);
    }
}
