/** Sagaflow's shared library: event store, transactional outbox, idempotent consumers and Hazelcast wiring. */
package io.sagaflow.framework;
