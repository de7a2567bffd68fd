/** How payments meet the outside world: HTTP and PostgreSQL. */
package io.sagaflow.payment.payments.adapter;
