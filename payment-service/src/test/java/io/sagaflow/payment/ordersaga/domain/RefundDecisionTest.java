package io.sagaflow.payment.ordersaga.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.payments.domain.Money;
import io.sagaflow.payment.payments.domain.PaymentInitiated;
import io.sagaflow.payment.payments.domain.PaymentState;
import io.sagaflow.payment.payments.domain.RefundPayment;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RefundDecisionTest {

    private static final UUID ORDER = UUID.fromString("00000000-0000-0000-0000-0000000000b1");
    private static final UUID PAYMENT = OrderPayment.paymentIdOf(ORDER);
    private static final PaymentInitiated INITIATED =
            new PaymentInitiated(PAYMENT, ORDER, UUID.randomUUID(), Money.of("25.00"), "USD", "CARD");

    @Test
    void givenCapturedPayment_whenRefundRequested_thenItIsRefundedWithTheSagasReason() {
        assertThat(RefundDecision.on(new RefundRequested(ORDER, "stock ran out"), new PaymentState.Captured(INITIATED)))
                .isEqualTo(new RefundDecision.Refund(new RefundPayment(PAYMENT, "stock ran out")));
    }

    @Test
    void givenCapturedPayment_whenRefundRequestedWithoutReason_thenTheDefaultReasonIsUsed() {
        assertThat(RefundDecision.on(new RefundRequested(ORDER, null), new PaymentState.Captured(INITIATED)))
                .isEqualTo(new RefundDecision.Refund(new RefundPayment(PAYMENT, RefundDecision.DEFAULT_REASON)));
    }

    @Test
    void givenNoPayment_whenRefundRequested_thenRefundNotRequired() {
        assertNotRequired(new PaymentState.NotCreated());
    }

    @Test
    void givenDeclinedPayment_whenRefundRequested_thenRefundNotRequired() {
        assertNotRequired(new PaymentState.Declined(INITIATED, "CREDIT_LIMIT_EXCEEDED"));
    }

    @Test
    void givenRefundedPayment_whenRefundRequested_thenRefundNotRequired() {
        assertNotRequired(new PaymentState.Refunded(INITIATED, Money.of("25.00")));
    }

    @Test
    void theOrdersPaymentIdIsDerivedFromTheOrderAlone() {
        assertThat(OrderPayment.paymentIdOf(ORDER))
                .isEqualTo(OrderPayment.paymentIdOf(UUID.fromString(ORDER.toString())));
        assertThat(OrderPayment.paymentIdOf(ORDER)).isNotEqualTo(OrderPayment.paymentIdOf(UUID.randomUUID()));
        assertThat(OrderPayment.refundStreamOf(ORDER)).isEqualTo("payment-refund-" + ORDER);
    }

    private static void assertNotRequired(PaymentState payment) {
        RefundDecision decision = RefundDecision.on(new RefundRequested(ORDER, "cancelled"), payment);
        assertThat(decision).isInstanceOf(RefundDecision.NotRequired.class);
        assertThat(((RefundDecision.NotRequired) decision).answer().orderId()).isEqualTo(ORDER);
    }
}
