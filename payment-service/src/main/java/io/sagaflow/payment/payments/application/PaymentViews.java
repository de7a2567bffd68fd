package io.sagaflow.payment.payments.application;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Reads of the {@code payment_view} table, always the committed state. */
public interface PaymentViews {

    /** The payment, if it exists. */
    Optional<PaymentView> find(UUID paymentId);

    /** The payments of an order, oldest first; empty if it has none. */
    List<PaymentView> findByOrder(UUID orderId);
}
