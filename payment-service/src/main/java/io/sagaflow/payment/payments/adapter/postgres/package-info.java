/** The payment view and customer credit tables: their projection, queries and the credit row lock. */
package io.sagaflow.payment.payments.adapter.postgres;
