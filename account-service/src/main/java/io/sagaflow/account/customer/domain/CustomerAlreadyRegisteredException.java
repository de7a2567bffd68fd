package io.sagaflow.account.customer.domain;

import java.util.UUID;

/** A registration reused the id of a customer that already exists. */
public final class CustomerAlreadyRegisteredException extends RuntimeException {

    public CustomerAlreadyRegisteredException(UUID customerId) {
        super("Customer " + customerId + " is already registered");
    }
}
