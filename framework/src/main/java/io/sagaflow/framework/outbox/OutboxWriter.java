package io.sagaflow.framework.outbox;

import io.sagaflow.framework.eventstore.Outbox;
import io.sagaflow.framework.transaction.AfterCommit;
import java.util.BitSet;

/**
 * The outbox the event store writes into: the event store inserts a row for every appended event whose type is
 * published in the statement that inserts the events (ADR 0052), so the rows exist if and only if the events do. Each
 * row goes to bucket {@code hash(streamId) mod buckets}: one stream, one bucket, one publisher at a time, hence
 * per-stream order. After the commit it wakes the relays that hold those buckets ({@link OutboxSignal#committed}).
 */
public final class OutboxWriter implements Outbox {

    private final int buckets;
    private final OutboxSignal signal;

    public OutboxWriter(int buckets, OutboxSignal signal) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1: " + buckets);
        }
        this.buckets = buckets;
        this.signal = signal;
    }

    /** The bucket of {@code streamId}'s outbox rows. */
    public static int bucketOf(String streamId, int buckets) {
        return Math.floorMod(streamId.hashCode(), buckets);
    }

    @Override
    public int bucketOf(String streamId) {
        return bucketOf(streamId, buckets);
    }

    @Override
    public void written(BitSet written) {
        AfterCommit.run(() -> signal.committed(written));
    }
}
