package io.sagaflow.order.fulfilment.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.contracts.PaymentDeclined;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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
    void aPaymentServiceBeforeTimeOrderedIdsAnswersTooWithTheNameBasedId() {
        // A payment service still on the contracts before ADR 0064, during a rolling upgrade.
        UUID timeOrdered = TimeOrderedIds.next();
        UUID named = UUID.nameUUIDFromBytes(("payment:" + timeOrdered).getBytes(StandardCharsets.UTF_8));
        assertThat(PaymentContracts.sagaPaymentIdOf(timeOrdered)).isNotEqualTo(named);
        assertThat(SagaFeed.toMessage(new PaymentCaptured(named, timeOrdered, customer, BigDecimal.TEN)))
                .isEqualTo(new SagaMessage.PaymentWasCaptured(timeOrdered, named, BigDecimal.TEN));
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
