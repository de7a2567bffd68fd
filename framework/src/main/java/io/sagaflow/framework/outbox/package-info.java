/**
 * The transactional outbox: rows written with the events they carry, published to the shared topic by the replica
 * holding the lease on their bucket, in order per stream, at least once, and deleted once published (ADR 0046).
 */
package io.sagaflow.framework.outbox;
