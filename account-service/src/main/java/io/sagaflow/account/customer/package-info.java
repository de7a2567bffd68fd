/** Customers: registration with a unique email, status changes, and the customer view other features read. */
package io.sagaflow.account.customer;
