package io.sagaflow.account.contracts;

import java.util.UUID;

/** A customer's status changed ({@code ACTIVE}, {@code SUSPENDED}, {@code CLOSED}); only active ones may order. */
public record CustomerStatusChanged(UUID customerId, String status, String reason) implements AccountEvent {}
