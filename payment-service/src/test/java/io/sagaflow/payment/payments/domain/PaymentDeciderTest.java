package io.sagaflow.payment.payments.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.test.decider.DeciderFixture;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentDeclined;
import io.sagaflow.payment.contracts.PaymentRefunded;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PaymentDeciderTest {

    private static final UUID PAYMENT = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID ORDER = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final UUID CUSTOMER = UUID.fromString("00000000-0000-0000-0000-00000000000c");
    private static final BigDecimal LIMIT = Money.of("50000.00");

    private final PaymentDecider decider = new PaymentDecider();
    private final DeciderFixture<PaymentCommand, PaymentState, DomainEvent> payment = DeciderFixture.of(decider);

    @Test
    void givenNothing_whenAuthorisedWithinBothLimits_thenInitiatedAndCaptured() {
        payment.givenNothing()
                .when(authorise("120.50", "0.00", false))
                .then(initiated("120.50"), new PaymentCaptured(PAYMENT, ORDER, CUSTOMER, Money.of("120.50")));
    }

    @Test
    void givenNothing_whenAmountIsExactlyThePerPaymentLimit_thenCaptured() {
        payment.givenNothing()
                .when(authorise("10000.00", "0.00", false))
                .then(initiated("10000.00"), new PaymentCaptured(PAYMENT, ORDER, CUSTOMER, Money.of("10000.00")));
    }

    @Test
    void givenNothing_whenAmountIsAboveThePerPaymentLimit_thenDeclinedAmountAboveLimit() {
        PaymentDeclined declined = declined(authorise("10000.01", "0.00", false));
        assertThat(declined.code()).isEqualTo("AMOUNT_ABOVE_LIMIT");
        assertThat(declined.amount()).isEqualByComparingTo("10000.01");
        assertThat(declined.reason()).contains("10000.01").contains("10000.00");
    }

    @Test
    void givenNothing_whenOutstandingPlusAmountReachesTheCreditLimitExactly_thenCaptured() {
        payment.givenNothing()
                .when(authorise("5000.00", "45000.00", false))
                .then(initiated("5000.00"), new PaymentCaptured(PAYMENT, ORDER, CUSTOMER, Money.of("5000.00")));
    }

    @Test
    void givenNothing_whenOutstandingPlusAmountWouldExceedTheCreditLimit_thenDeclinedCreditLimitExceeded() {
        PaymentDeclined declined = declined(authorise("5000.01", "45000.00", false));
        assertThat(declined.code()).isEqualTo("CREDIT_LIMIT_EXCEEDED");
        assertThat(declined.reason()).contains("45000.00").contains("5000.01").contains("50000.00");
    }

    @Test
    void givenNothing_whenBothLimitsAreBroken_thenThePerPaymentLimitIsTheCode() {
        assertThat(declined(authorise("10000.01", "49999.00", false)).code()).isEqualTo("AMOUNT_ABOVE_LIMIT");
    }

    @Test
    void givenNothing_whenTheOrderWasCancelled_thenDeclinedOrderCancelledWhateverTheAmount() {
        assertThat(declined(authorise("1.00", "0.00", true)).code()).isEqualTo("ORDER_CANCELLED");
    }

    @Test
    void givenNothing_whenTheRequestHasNoCustomerOrNoPositiveAmount_thenDeclinedInvalidRequest() {
        var noCustomer = new AuthorisePayment(PAYMENT, ORDER, null, Money.of("1.00"), "USD", "CARD", null, false);
        var zero = new AuthorisePayment(
                PAYMENT, ORDER, CUSTOMER, BigDecimal.ZERO, "USD", "CARD", new CreditPosition(Money.ZERO, LIMIT), false);
        assertThat(declined(noCustomer).code()).isEqualTo("INVALID_REQUEST");
        assertThat(declined(zero).code()).isEqualTo("INVALID_REQUEST");
    }

    @Test
    void givenNothing_whenAmountHasMoreThanTwoDecimals_thenItIsRoundedHalfEven() {
        payment.givenNothing()
                .when(authorise("10.005", "0.00", false))
                .then(initiated("10.00"), new PaymentCaptured(PAYMENT, ORDER, CUSTOMER, Money.of("10.00")));
    }

    @Test
    void givenCaptured_whenAuthorisedAgain_thenNothingHappens() {
        payment.given(initiated("10.00"), captured("10.00"))
                .when(authorise("10.00", "10.00", false))
                .thenNothing();
    }

    @Test
    void givenDeclined_whenAuthorisedAgain_thenNothingHappens() {
        payment.given(initiated("10.00"), declinedEvent("10.00"))
                .when(authorise("10.00", "0.00", false))
                .thenNothing();
    }

    @Test
    void givenCaptured_whenRefunded_thenRefundedInFull() {
        PaymentState after = payment.given(initiated("99.99"), captured("99.99"))
                .when(new RefundPayment(PAYMENT, "customer changed their mind"))
                .then(new PaymentRefunded(PAYMENT, ORDER, Money.of("99.99"), "customer changed their mind"));
        assertThat(after).isInstanceOf(PaymentState.Refunded.class);
    }

    @Test
    void givenRefunded_whenRefundedAgain_thenRejectedAsAlreadyRefunded() {
        payment.given(
                        initiated("99.99"),
                        captured("99.99"),
                        new PaymentRefunded(PAYMENT, ORDER, Money.of("99.99"), "first"))
                .when(new RefundPayment(PAYMENT, "second"))
                .thenRejectedWith(PaymentAlreadyRefundedException.class);
    }

    @Test
    void givenDeclined_whenRefunded_thenRejectedAsNotRefundable() {
        payment.given(initiated("10.00"), declinedEvent("10.00"))
                .when(new RefundPayment(PAYMENT, "why not"))
                .thenRejectedWith(PaymentNotRefundableException.class);
    }

    @Test
    void givenNothing_whenRefunded_thenRejectedAsNotFound() {
        payment.givenNothing()
                .when(new RefundPayment(PAYMENT, "no such payment"))
                .thenRejectedWith(PaymentNotFoundException.class);
    }

    @Test
    void theHistoryOfADeclinedPaymentLeadsToDeclinedWithItsCode() {
        assertThat(payment.given(initiated("10.00"), declinedEvent("10.00")).state())
                .isEqualTo(new PaymentState.Declined(
                        new PaymentInitiated(PAYMENT, ORDER, CUSTOMER, Money.of("10.00"), "USD", "CARD"),
                        "AMOUNT_ABOVE_LIMIT"));
    }

    private PaymentDeclined declined(AuthorisePayment command) {
        List<DomainEvent> events = decider.decide(command, decider.initialState());
        assertThat(events).hasSize(2);
        assertThat(events.getFirst()).isInstanceOf(PaymentInitiated.class);
        assertThat(events.get(1)).isInstanceOf(PaymentDeclined.class);
        PaymentDeclined declined = (PaymentDeclined) events.get(1);
        assertThat(declined.paymentId()).isEqualTo(PAYMENT);
        assertThat(declined.orderId()).isEqualTo(ORDER);
        return declined;
    }

    private static AuthorisePayment authorise(String amount, String outstanding, boolean orderCancelled) {
        return new AuthorisePayment(
                PAYMENT,
                ORDER,
                CUSTOMER,
                new BigDecimal(amount),
                "USD",
                "CARD",
                new CreditPosition(new BigDecimal(outstanding), LIMIT),
                orderCancelled);
    }

    private static PaymentInitiated initiated(String amount) {
        return new PaymentInitiated(PAYMENT, ORDER, CUSTOMER, Money.of(amount), "USD", "CARD");
    }

    private static PaymentCaptured captured(String amount) {
        return new PaymentCaptured(PAYMENT, ORDER, CUSTOMER, Money.of(amount));
    }

    private static PaymentDeclined declinedEvent(String amount) {
        return new PaymentDeclined(PAYMENT, ORDER, CUSTOMER, Money.of(amount), "AMOUNT_ABOVE_LIMIT", "too much");
    }
}
