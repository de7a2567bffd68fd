/** The subscription of consumer {@code payment.order-saga} to the shared topic, started and stopped with the app. */
package io.sagaflow.payment.ordersaga.adapter.topic;
