/** Runs the saga: turns inbox messages into recorded decisions, arms and clears deadlines. */
package io.sagaflow.order.fulfilment.application;
