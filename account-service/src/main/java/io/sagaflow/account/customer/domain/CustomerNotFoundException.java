package io.sagaflow.account.customer.domain;

import java.util.UUID;

/** A command addressed a customer that was never registered. */
public final class CustomerNotFoundException extends RuntimeException {

    private final UUID customerId;

    public CustomerNotFoundException(UUID customerId) {
        super("Customer " + customerId + " does not exist");
        this.customerId = customerId;
    }

    public UUID customerId() {
        return customerId;
    }
}
