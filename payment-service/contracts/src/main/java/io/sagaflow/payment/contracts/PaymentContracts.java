package io.sagaflow.payment.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the payment service's published events under their stable names. */
public final class PaymentContracts {

    /** Stream id prefix of payments: {@code payment-<paymentId>}. */
    public static final String PAYMENT_STREAM = "payment-";

    private PaymentContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished("PaymentCaptured", PaymentCaptured.class)
                .registerPublished("PaymentDeclined", PaymentDeclined.class)
                .registerPublished("PaymentRefunded", PaymentRefunded.class)
                .registerPublished("RefundNotRequired", RefundNotRequired.class);
    }
}
