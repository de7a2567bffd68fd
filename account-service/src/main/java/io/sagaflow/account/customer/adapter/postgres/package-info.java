/** The customer view and email claims in PostgreSQL, written in the transaction of the events they follow. */
package io.sagaflow.account.customer.adapter.postgres;
