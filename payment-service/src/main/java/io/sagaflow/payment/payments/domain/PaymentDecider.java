package io.sagaflow.payment.payments.domain;

import io.sagaflow.framework.domain.Decider;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentDeclined;
import io.sagaflow.payment.contracts.PaymentEvent;
import io.sagaflow.payment.contracts.PaymentRefunded;
import io.sagaflow.payment.contracts.RefundNotRequired;
import io.sagaflow.payment.payments.domain.PaymentState.Captured;
import io.sagaflow.payment.payments.domain.PaymentState.Declined;
import io.sagaflow.payment.payments.domain.PaymentState.Initiated;
import io.sagaflow.payment.payments.domain.PaymentState.NotCreated;
import io.sagaflow.payment.payments.domain.PaymentState.Refunded;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * One payment, from authorisation to refund.
 *
 * <p><b>Authorisation rule</b> (deterministic; the first that applies wins):
 *
 * <ol>
 *   <li>{@code INVALID_REQUEST}: no customer, or an amount that is missing or not positive (only a malformed saga
 *       request can get here; the HTTP API rejects such input with 400);
 *   <li>{@code ORDER_CANCELLED}: a refund was already requested for the order, so it must not be charged;
 *   <li>{@code AMOUNT_ABOVE_LIMIT}: the amount is above {@link #MAX_AMOUNT} (10 000.00; exactly 10 000.00 passes);
 *   <li>{@code CREDIT_LIMIT_EXCEEDED}: the customer's outstanding total (captured minus refunded over all their
 *       payments) plus the amount would exceed their credit limit (reaching it exactly passes);
 *   <li>otherwise the payment is captured.
 * </ol>
 *
 * <p>An authorisation appends {@link PaymentInitiated} and its outcome, {@link PaymentCaptured} or
 * {@link PaymentDeclined}; authorising a payment that exists already changes nothing. Only a captured payment can be
 * refunded, in full and once ({@link PaymentRefunded}). The credit position comes with the command: the caller reads
 * it under the customer's lock in the transaction that appends the outcome, which makes the credit check atomic.
 */
public final class PaymentDecider implements Decider<PaymentCommand, PaymentState, DomainEvent> {

    /** The most one payment may charge. */
    public static final BigDecimal MAX_AMOUNT = Money.of("10000.00");

    @Override
    public PaymentState initialState() {
        return new NotCreated();
    }

    @Override
    public List<DomainEvent> decide(PaymentCommand command, PaymentState state) {
        return switch (command) {
            case AuthorisePayment authorise -> authorise(authorise, state);
            case RefundPayment refund -> refund(refund, state);
        };
    }

    @Override
    public PaymentState evolve(PaymentState state, DomainEvent event) {
        return switch (event) {
            case PaymentInitiated initiated -> new Initiated(initiated);
            case PaymentEvent published -> evolvePublished(state, published);
            default -> throw new IllegalArgumentException("not a payment event: " + event.getClass());
        };
    }

    private static PaymentState evolvePublished(PaymentState state, PaymentEvent event) {
        return switch (event) {
            case PaymentCaptured captured -> new Captured(initiated(state));
            case PaymentDeclined declined -> new Declined(initiated(state), declined.code());
            case PaymentRefunded refunded -> new Refunded(initiated(state), refunded.amount());
            case RefundNotRequired notRequired -> state;
        };
    }

    private static PaymentInitiated initiated(PaymentState state) {
        return switch (state) {
            case Initiated initiated -> initiated.payment();
            case Captured captured -> captured.payment();
            case Declined declined -> declined.payment();
            case Refunded refunded -> refunded.payment();
            case NotCreated notCreated -> throw new IllegalStateException("payment outcome before PaymentInitiated");
        };
    }

    private static List<DomainEvent> authorise(AuthorisePayment command, PaymentState state) {
        if (!(state instanceof NotCreated)) {
            return List.of();
        }
        var initiated = new PaymentInitiated(
                command.paymentId(),
                command.orderId(),
                command.customerId(),
                command.amount(),
                command.currency(),
                command.method());
        DomainEvent outcome = decline(command)
                .<DomainEvent>map(decline -> new PaymentDeclined(
                        command.paymentId(),
                        command.orderId(),
                        command.customerId(),
                        command.amount(),
                        decline.code().name(),
                        decline.reason()))
                .orElseGet(() -> new PaymentCaptured(
                        command.paymentId(), command.orderId(), command.customerId(), command.amount()));
        return List.of(initiated, outcome);
    }

    /** The authorisation rule: why {@code command} must be declined, or empty to capture it. */
    static Optional<Decline> decline(AuthorisePayment command) {
        BigDecimal amount = command.amount();
        if (command.customerId() == null || command.credit() == null || amount == null || amount.signum() <= 0) {
            return Optional.of(new Decline(
                    DeclineCode.INVALID_REQUEST, "A payment needs a customer and a positive amount, was " + amount));
        }
        if (command.orderCancelled()) {
            return Optional.of(new Decline(
                    DeclineCode.ORDER_CANCELLED, "Order " + command.orderId() + " was cancelled before it was paid"));
        }
        if (amount.compareTo(MAX_AMOUNT) > 0) {
            return Optional.of(new Decline(
                    DeclineCode.AMOUNT_ABOVE_LIMIT,
                    "Amount " + amount.toPlainString() + " is above the limit of " + MAX_AMOUNT.toPlainString()
                            + " per payment"));
        }
        CreditPosition credit = command.credit();
        if (credit.wouldExceed(amount)) {
            return Optional.of(new Decline(
                    DeclineCode.CREDIT_LIMIT_EXCEEDED,
                    "Outstanding " + credit.outstanding().toPlainString() + " plus " + amount.toPlainString()
                            + " would exceed the credit limit of "
                            + credit.limit().toPlainString()));
        }
        return Optional.empty();
    }

    private static List<DomainEvent> refund(RefundPayment command, PaymentState state) {
        return switch (state) {
            case NotCreated notCreated -> throw new PaymentNotFoundException(command.paymentId());
            case Initiated initiated -> throw new PaymentNotRefundableException(command.paymentId());
            case Declined declined -> throw new PaymentNotRefundableException(command.paymentId());
            case Refunded refunded -> throw new PaymentAlreadyRefundedException(command.paymentId());
            case Captured captured ->
                List.of(new PaymentRefunded(
                        captured.payment().paymentId(),
                        captured.payment().orderId(),
                        captured.payment().amount(),
                        command.reason()));
        };
    }

    /** Why a payment is declined. */
    record Decline(DeclineCode code, String reason) {}
}
