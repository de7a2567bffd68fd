/**
 * Runs the saga: turns inbox messages into recorded decisions, arms and clears deadlines; and audits the invariants
 * the sagas keep across the services.
 */
package io.sagaflow.order.fulfilment.application;
