package io.sagaflow.account.customer.domain;

import java.util.UUID;

/** What a customer stream's events add up to: nothing yet, or a registered customer with a status. */
public sealed interface CustomerState {

    /** A stream without events. */
    record Unregistered() implements CustomerState {}

    /**
     * A registered customer.
     *
     * @param customerId its id
     * @param status its current status
     */
    record Registered(UUID customerId, CustomerStatus status) implements CustomerState {}
}
