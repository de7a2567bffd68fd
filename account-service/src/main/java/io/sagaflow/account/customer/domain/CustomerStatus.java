package io.sagaflow.account.customer.domain;

/** Where a customer stands: only {@code ACTIVE} customers may order; {@code CLOSED} is final. */
public enum CustomerStatus {
    ACTIVE,
    SUSPENDED,
    CLOSED
}
