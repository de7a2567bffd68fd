package io.sagaflow.account.contracts;

import io.sagaflow.framework.eventstore.EventTypeRegistry;

/** Registers the account service's published events under their stable names. */
public final class AccountContracts {

    /** Stream id prefix of customers: {@code customer-<customerId>}. */
    public static final String CUSTOMER_STREAM = "customer-";

    private AccountContracts() {}

    public static EventTypeRegistry.Builder register(EventTypeRegistry.Builder types) {
        return types.registerPublished("CustomerRegistered", CustomerRegistered.class)
                .registerPublished("CustomerStatusChanged", CustomerStatusChanged.class);
    }
}
