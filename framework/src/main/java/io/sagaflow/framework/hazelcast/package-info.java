/**
 * Hazelcast topology: an embedded member of the service's own cluster (Jet, saga state, outbox leases) and a
 * connection to the shared cluster that carries events between services. See ADR 0005.
 */
package io.sagaflow.framework.hazelcast;
