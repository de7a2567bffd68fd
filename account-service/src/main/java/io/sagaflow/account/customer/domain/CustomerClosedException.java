package io.sagaflow.account.customer.domain;

import java.util.UUID;

/** A closed customer was asked to change: closing is final. */
public final class CustomerClosedException extends RuntimeException {

    public CustomerClosedException(UUID customerId) {
        super("Customer " + customerId + " is closed; a closed customer cannot change status");
    }
}
