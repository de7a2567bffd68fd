package io.sagaflow.payment;

/** Names of the payment service's Hazelcast structures, in one place. */
public final class PaymentHazelcastNames {

    /** The bounded, load-through cache of the payment view, keyed by payment id. */
    public static final String PAYMENT_VIEW = "payment.payment-view";

    private PaymentHazelcastNames() {}
}
