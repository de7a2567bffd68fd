package io.sagaflow.account.customer.application;

import java.util.UUID;

/**
 * Who owns which email. A claim joins the caller's transaction; of two transactions claiming one email, the second
 * waits for the first and succeeds only if the first rolls back, so at most one claim per email ever commits.
 */
public interface EmailClaims {

    /** Claims {@code email} (lower case) for {@code customerId}; false if another customer holds it. */
    boolean claim(String email, UUID customerId);
}
