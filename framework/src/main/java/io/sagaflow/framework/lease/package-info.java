/**
 * Leases on a fixed set of slots, held by the members of one per-service Hazelcast cluster and changed only by
 * compare-and-set entry processors: how replicas share out outbox buckets without publishing an entry twice.
 */
package io.sagaflow.framework.lease;
