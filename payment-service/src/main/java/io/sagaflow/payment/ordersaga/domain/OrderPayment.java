package io.sagaflow.payment.ordersaga.domain;

import io.sagaflow.payment.contracts.PaymentContracts;
import java.util.List;
import java.util.UUID;

/**
 * An order's saga payment: at most one per order, ever. Its id is derived from the order id, so every delivery of a
 * payment request for the order names the same payment stream, and only the first can create it.
 */
public final class OrderPayment {

    /** Stream prefix of the refund answers: {@code payment-refund-<orderId>}, at most one event each. */
    public static final String REFUND_STREAM = "payment-refund-";

    private OrderPayment() {}

    /** The id of {@code orderId}'s payment, as the contract defines it for the saga: the id a new one gets. */
    public static UUID paymentIdOf(UUID orderId) {
        return PaymentContracts.sagaPaymentIdOf(orderId);
    }

    /**
     * Every id {@code orderId}'s payment may have been made with, {@link #paymentIdOf} first: a replica built before
     * ADR 0064 gives a time-ordered order's payment the name-based id.
     */
    public static List<UUID> paymentIdsOf(UUID orderId) {
        return PaymentContracts.sagaPaymentIdsOf(orderId);
    }

    /** The stream that answers {@code orderId}'s refund request with {@code RefundNotRequired}. */
    public static String refundStreamOf(UUID orderId) {
        return REFUND_STREAM + orderId;
    }
}
