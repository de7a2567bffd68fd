package io.sagaflow.account.customer.domain;

import java.util.UUID;

/**
 * Move a customer to {@code status}.
 *
 * @param customerId the customer
 * @param status the status to move to
 * @param reason why, for the audit trail; may be null
 */
public record ChangeCustomerStatus(UUID customerId, CustomerStatus status, String reason) implements CustomerCommand {}
