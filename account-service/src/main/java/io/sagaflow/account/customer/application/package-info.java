/** Customer use cases: registering, changing status and reading the customer view, each atomic. */
package io.sagaflow.account.customer.application;
