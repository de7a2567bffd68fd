package io.sagaflow.account.customer.application;

import java.time.Instant;
import java.util.UUID;

/**
 * One customer as clients see it; the JSON field names are part of the public API.
 *
 * @param customerId the customer's id
 * @param email lower-case email, unique among customers
 * @param name display name
 * @param address postal address, or null
 * @param phone phone number, or null
 * @param status {@code ACTIVE}, {@code SUSPENDED} or {@code CLOSED}
 * @param createdAt when the customer was registered
 * @param updatedAt when the customer last changed
 */
public record CustomerView(
        UUID customerId,
        String email,
        String name,
        String address,
        String phone,
        String status,
        Instant createdAt,
        Instant updatedAt) {}
