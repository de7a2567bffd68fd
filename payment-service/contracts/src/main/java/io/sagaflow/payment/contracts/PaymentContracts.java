package io.sagaflow.payment.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
     *
     * <p>For a time-ordered order id (version 7, ADR 0064) it is a version-8 id that keeps the order's 48 bits of time
     * and takes the rest from the name-based id below, so the payment's rows sit in the index pages of their time
     * like the order's. For any other order id (those placed before ADR 0064) it is the name-based id (version 3) of
     * {@code "payment:" + orderId}, as it always was.
     */
    public static UUID sagaPaymentIdOf(UUID orderId) {
        return sagaPaymentIdOf(orderId, namedPaymentIdOf(orderId));
    }

    private static UUID sagaPaymentIdOf(UUID orderId, UUID named) {
        if (orderId.version() != 7) {
            return named;
        }
        // The order's 48 bits of time, version 8, then the name-based id's bits but its version and variant.
        long time = orderId.getMostSignificantBits() & 0xFFFF_FFFF_FFFF_0000L;
        return new UUID(time | 0x8000L | named.getMostSignificantBits() & 0x0FFFL, named.getLeastSignificantBits());
    }

    /**
     * Every id the saga's payment of {@code orderId} may have: {@link #sagaPaymentIdOf} first, then, for a time-ordered
     * order id, the name-based id, which a payment service built before ADR 0064 gives every order (during a rolling
     * upgrade, an older replica may have made the payment).
     */
    public static List<UUID> sagaPaymentIdsOf(UUID orderId) {
        UUID named = namedPaymentIdOf(orderId);
        UUID current = sagaPaymentIdOf(orderId, named);
        return current.equals(named) ? List.of(current) : List.of(current, named);
    }

    /** Whether {@code paymentId} is one of {@link #sagaPaymentIdsOf}: the saga's payment of {@code orderId}. */
    public static boolean isSagaPaymentOf(UUID orderId, UUID paymentId) {
        return sagaPaymentIdsOf(orderId).contains(paymentId);
    }

    private static UUID namedPaymentIdOf(UUID orderId) {
        return UUID.nameUUIDFromBytes(("payment:" + orderId).getBytes(StandardCharsets.UTF_8));
    }

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PUBLISHER, "PaymentCaptured", PaymentCaptured.class)
                .registerPublished(PUBLISHER, "PaymentDeclined", PaymentDeclined.class)
                .registerPublished(PUBLISHER, "PaymentRefunded", PaymentRefunded.class)
                .registerPublished(PUBLISHER, "RefundNotRequired", RefundNotRequired.class);
    }
}
