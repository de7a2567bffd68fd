package io.sagaflow.account;

/** Names of the account service's Hazelcast structures, in one place. */
public final class AccountHazelcastNames {

    /** The bounded, load-through cache of the customer view, keyed by customer id. */
    public static final String CUSTOMER_VIEW = "account.customer-view";

    private AccountHazelcastNames() {}
}
