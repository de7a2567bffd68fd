/** Handles the order saga's payment and refund requests, once per order, inside the consumer's transaction. */
package io.sagaflow.payment.ordersaga.application;
