/** How customers meet the outside world: HTTP and PostgreSQL. */
package io.sagaflow.account.customer.adapter;
