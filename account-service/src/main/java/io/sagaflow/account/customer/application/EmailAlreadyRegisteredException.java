package io.sagaflow.account.customer.application;

/** A registration asked for an email that another customer already has. */
public final class EmailAlreadyRegisteredException extends RuntimeException {

    public EmailAlreadyRegisteredException() {
        super("A customer with this email is already registered");
    }
}
