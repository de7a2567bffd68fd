/**
 * Per-client rate limits: token buckets in an {@code IMap} of the gateway's own Hazelcast cluster, shared by every
 * gateway replica and updated by an entry processor on the bucket's partition owner (ADR 0012).
 */
package io.sagaflow.gateway.ratelimit;
