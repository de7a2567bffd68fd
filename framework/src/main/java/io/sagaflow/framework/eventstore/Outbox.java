package io.sagaflow.framework.eventstore;

import java.util.BitSet;

/**
 * The transactional outbox as an append writes it (ADR 0003): a row in table {@code outbox} for each event of a
 * published type, inserted by the very statement that inserts the events (ADR 0052), so the rows exist if and only if
 * the events do, and cost the append no round trip of their own. The append files all of a stream's rows under the
 * stream's bucket, and tells the outbox which buckets got rows.
 */
public interface Outbox {

    /** The bucket of {@code streamId}'s rows: one stream, one bucket, hence one publisher at a time. */
    int bucketOf(String streamId);

    /**
     * Rows were written into {@code buckets} by an append that succeeded, inside the caller's transaction if it has
     * one; they are visible to the relays only once that commits.
     */
    void written(BitSet buckets);
}
