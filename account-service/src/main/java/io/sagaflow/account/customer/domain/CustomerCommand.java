package io.sagaflow.account.customer.domain;

import io.sagaflow.framework.domain.Command;
import java.util.UUID;

/** A request to change a customer, decided by {@link Customer}. */
public sealed interface CustomerCommand extends Command permits RegisterCustomer, ChangeCustomerStatus {

    /** The customer the command is about. */
    UUID customerId();
}
