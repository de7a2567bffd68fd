package io.sagaflow.payment.ordersaga.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.payment.contracts.PaymentContracts;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The saga payment's id: derived from the order's, and in the order's place in time when the order's id has one. */
class OrderPaymentTest {

    @Test
    void aTimeOrderedOrdersPaymentKeepsItsTimeAndIsNotTheOrdersId() {
        UUID order = TimeOrderedIds.next();

        UUID payment = OrderPayment.paymentIdOf(order);

        assertThat(payment.version()).isEqualTo(8);
        assertThat(payment.variant()).isEqualTo(2);
        assertThat(payment.getMostSignificantBits() >>> 16).isEqualTo(TimeOrderedIds.epochMillisOf(order));
        assertThat(payment).isNotEqualTo(order).isEqualTo(OrderPayment.paymentIdOf(order));
        assertThat(OrderPayment.paymentIdOf(TimeOrderedIds.next())).isNotEqualTo(payment);
    }

    @Test
    void anOlderOrdersPaymentKeepsTheNameBasedIdItWasMadeWith() {
        UUID order = UUID.fromString("00000000-0000-0000-0000-0000000000b1");

        assertThat(OrderPayment.paymentIdOf(order))
                .isEqualTo(UUID.nameUUIDFromBytes(("payment:" + order).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theSagaKnowsItsPaymentByEitherIdButNotAnother() {
        UUID order = TimeOrderedIds.next();
        UUID named = UUID.nameUUIDFromBytes(("payment:" + order).getBytes(StandardCharsets.UTF_8));

        assertThat(PaymentContracts.isSagaPaymentOf(order, OrderPayment.paymentIdOf(order)))
                .isTrue();
        assertThat(PaymentContracts.isSagaPaymentOf(order, named)).isTrue();
        assertThat(PaymentContracts.isSagaPaymentOf(order, TimeOrderedIds.next()))
                .isFalse();
        assertThat(PaymentContracts.isSagaPaymentOf(TimeOrderedIds.next(), named))
                .isFalse();
    }
}
