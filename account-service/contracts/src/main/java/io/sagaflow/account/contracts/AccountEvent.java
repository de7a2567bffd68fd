package io.sagaflow.account.contracts;

import io.sagaflow.framework.domain.DomainEvent;

/** An event the account service publishes. */
public sealed interface AccountEvent extends DomainEvent permits CustomerRegistered, CustomerStatusChanged {}
