package io.sagaflow.payment.ordersaga.domain;

import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.contracts.RefundNotRequired;
import io.sagaflow.payment.payments.domain.PaymentState;
import io.sagaflow.payment.payments.domain.RefundPayment;

/**
 * What the saga's refund request leads to: a refund if the order's payment captured money that is not yet refunded,
 * otherwise the answer that no refund is needed. Either way the saga gets exactly one answer.
 */
public sealed interface RefundDecision {

    /** The reason a refund carries when the saga gave none. */
    String DEFAULT_REASON = "Order cancelled";

    /** Refund the order's payment. */
    record Refund(RefundPayment command) implements RefundDecision {}

    /** Nothing to refund; tell the saga so. */
    record NotRequired(RefundNotRequired answer) implements RefundDecision {}

    /** The decision on {@code request}, given the state of the order's payment. */
    static RefundDecision on(RefundRequested request, PaymentState payment) {
        return switch (payment) {
            case PaymentState.Captured captured ->
                new Refund(new RefundPayment(
                        captured.payment().paymentId(),
                        request.reason() == null || request.reason().isBlank() ? DEFAULT_REASON : request.reason()));
            case PaymentState.NotCreated notCreated ->
                notRequired(request, "No payment was taken for the order; it can no longer be charged");
            case PaymentState.Initiated initiated -> notRequired(request, "No payment was captured for the order");
            case PaymentState.Declined declined ->
                notRequired(request, "The order's payment was declined (" + declined.code() + ")");
            case PaymentState.Refunded refunded -> notRequired(request, "The order's payment is already refunded");
        };
    }

    private static NotRequired notRequired(RefundRequested request, String reason) {
        return new NotRequired(new RefundNotRequired(request.orderId(), reason));
    }
}
