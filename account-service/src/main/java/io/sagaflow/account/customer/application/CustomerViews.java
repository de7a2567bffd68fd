package io.sagaflow.account.customer.application;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Reads the customer view as committed; it is as current as the event store, since it changes with every append. */
public interface CustomerViews {

    /** The customer {@code customerId}, if registered. */
    Optional<CustomerView> find(UUID customerId);

    /** The {@code limit} most recently registered customers, newest first. */
    List<CustomerView> newest(int limit);
}
