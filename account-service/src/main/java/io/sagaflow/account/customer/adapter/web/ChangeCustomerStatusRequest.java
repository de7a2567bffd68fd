package io.sagaflow.account.customer.adapter.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code PATCH /api/customers/{id}/status}.
 *
 * @param status {@code ACTIVE}, {@code SUSPENDED} or {@code CLOSED}
 * @param reason why, optional
 */
public record ChangeCustomerStatusRequest(
        @NotNull @Pattern(regexp = "ACTIVE|SUSPENDED|CLOSED", message = "must be one of ACTIVE, SUSPENDED, CLOSED")
        String status,

        @Size(max = 500) String reason) {}
