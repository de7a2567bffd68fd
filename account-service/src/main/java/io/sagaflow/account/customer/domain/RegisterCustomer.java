package io.sagaflow.account.customer.domain;

import java.util.UUID;

/**
 * Register a new customer under a fresh id. The email is already normalised and claimed: its uniqueness spans
 * customers, so it is guarded outside the aggregate.
 *
 * @param customerId the new customer's id
 * @param email lower-case email
 * @param name display name
 * @param address postal address, or null
 * @param phone phone number, or null
 */
public record RegisterCustomer(UUID customerId, String email, String name, String address, String phone)
        implements CustomerCommand {}
