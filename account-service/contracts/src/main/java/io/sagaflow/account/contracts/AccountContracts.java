package io.sagaflow.account.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the account service's published events under their stable names. */
public final class AccountContracts {

    /** The publisher these events are registered under: their messages travel on its topics (ADR 0019). */
    public static final String PUBLISHER = "account";

    /** Stream id prefix of customers: {@code customer-<customerId>}. */
    public static final String CUSTOMER_STREAM = "customer-";

    private AccountContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished(PUBLISHER, "CustomerRegistered", CustomerRegistered.class)
                .registerPublished(PUBLISHER, "CustomerStatusChanged", CustomerStatusChanged.class);
    }
}
