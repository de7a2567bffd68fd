package io.sagaflow.account.customer.adapter.web;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/customers}.
 *
 * @param email the customer's email; stored in lower case, unique among customers
 * @param name display name
 * @param address postal address, optional
 * @param phone phone number, optional
 */
public record RegisterCustomerRequest(
        @NotBlank @Email @Size(max = 254) String email,
        @NotBlank @Size(max = 200) String name,
        @Size(max = 500) String address,
        @Size(max = 50) String phone) {}
