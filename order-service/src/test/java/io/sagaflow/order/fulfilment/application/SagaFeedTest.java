package io.sagaflow.order.fulfilment.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.contracts.PaymentDeclined;
import java.math.BigDecimal;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SagaFeedTest {

    private final UUID order = UUID.randomUUID();
    private final UUID customer = UUID.randomUUID();

    @Test
    void theSagasOwnPaymentAnswersTheSaga() {
        UUID payment = PaymentContracts.sagaPaymentIdOf(order);
        assertThat(SagaFeed.toMessage(new PaymentCaptured(payment, order, customer, BigDecimal.TEN)))
                .isEqualTo(new SagaMessage.PaymentWasCaptured(order, payment, BigDecimal.TEN));
    }

    @Test
    void aPaymentMadeDirectlyThroughTheApiForTheSameOrderDoesNot() {
        UUID direct = UUID.randomUUID();
        assertThat(SagaFeed.toMessage(new PaymentCaptured(direct, order, customer, BigDecimal.TEN)))
                .isNull();
        assertThat(SagaFeed.toMessage(
                        new PaymentDeclined(direct, order, customer, BigDecimal.TEN, "AMOUNT_ABOVE_LIMIT", "no")))
                .isNull();
    }
}
