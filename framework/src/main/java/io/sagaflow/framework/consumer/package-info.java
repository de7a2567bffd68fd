/**
 * Idempotent consumption of events from the shared topic: each (consumer, event id) is recorded in the same
 * transaction as the consumer's effects, so at-least-once delivery has exactly-once effects.
 */
package io.sagaflow.framework.consumer;
