package io.sagaflow.payment.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Registers the payment service's published events under their stable names. */
public final class PaymentContracts {

    /** The publisher these events are registered under: their messages travel on its topics (ADR 0019). */
    public static final String PUBLISHER = "payment";

    /** Stream id prefix of payments: {@code payment-<paymentId>}. */
    public static final String PAYMENT_STREAM = "payment-";

    private PaymentContracts() {}

    /**
     * The id of the one payment a saga's {@code PaymentRequested} may create for {@code orderId}. Payments made
     * directly through the API have random ids, so a saga knows its own payment's answers from theirs.
     */
    public static UUID sagaPaymentIdOf(UUID orderId) {
        return UUID.nameUUIDFromBytes(("payment:" + orderId).getBytes(StandardCharsets.UTF_8));
    }

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PUBLISHER, "PaymentCaptured", PaymentCaptured.class)
                .registerPublished(PUBLISHER, "PaymentDeclined", PaymentDeclined.class)
                .registerPublished(PUBLISHER, "PaymentRefunded", PaymentRefunded.class)
                .registerPublished(PUBLISHER, "RefundNotRequired", RefundNotRequired.class);
    }
}
