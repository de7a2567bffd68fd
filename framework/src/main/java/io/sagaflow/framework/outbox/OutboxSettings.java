package io.sagaflow.framework.outbox;

import java.time.Duration;

/**
 * How the outbox behaves.
 *
 * @param buckets how many buckets rows are spread over (the unit of claiming; fixed for a database's lifetime)
 * @param batchSize rows published per round trip
 * @param pollInterval longest wait between polls when no commit woke the relay: how late a row whose wake-up went
 *     astray is published (ADR 0035)
 * @param leaseTtl how long a bucket lease lasts without renewal: the takeover time when a replica dies silently
 * @param retention how long rows marked published by versions before ADR 0046 are kept before pruning
 * @param pruneInterval how often pruning runs
 * @param pruneBatchSize rows deleted per pruning statement
 */
public record OutboxSettings(
        int buckets,
        int batchSize,
        Duration pollInterval,
        Duration leaseTtl,
        Duration retention,
        Duration pruneInterval,
        int pruneBatchSize) {

    /** Defaults suited to a service: 64 buckets, batches of 256, 1 s poll, 10 s leases, 1 h retention. */
    public static OutboxSettings defaults() {
        return new OutboxSettings(
                64,
                256,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                Duration.ofHours(1),
                Duration.ofMinutes(1),
                10_000);
    }
}
