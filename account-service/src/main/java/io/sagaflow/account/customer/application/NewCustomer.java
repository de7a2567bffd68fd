package io.sagaflow.account.customer.application;

/**
 * What a registration asks for, as given by the client (validated for shape, not yet normalised).
 *
 * @param email email in any case
 * @param name display name
 * @param address postal address, or null/blank for none
 * @param phone phone number, or null/blank for none
 */
public record NewCustomer(String email, String name, String address, String phone) {}
