package io.sagaflow.account.contracts;

import java.util.UUID;

/** A customer was registered; new customers are {@code ACTIVE}. */
public record CustomerRegistered(UUID customerId, String email, String name, String address, String phone)
        implements AccountEvent {}
