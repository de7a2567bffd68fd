package io.sagaflow.framework.eventstore;

import java.util.Comparator;

/**
 * Where an event stands in the store's global order: the id of the PostgreSQL transaction that wrote it, then its
 * sequence number inside the table. Readers of the global order only see events of transactions older than every
 * transaction still running, so no event can ever appear behind a position a reader has passed (ADR 0002).
 *
 * @param transactionId the writing transaction's 64-bit id ({@code xid8})
 * @param sequence the event's unique, increasing sequence number
 */
public record GlobalPosition(long transactionId, long sequence) implements Comparable<GlobalPosition> {

    /** Before the first event. */
    public static final GlobalPosition START = new GlobalPosition(0, 0);

    private static final Comparator<GlobalPosition> ORDER =
            Comparator.comparingLong(GlobalPosition::transactionId).thenComparingLong(GlobalPosition::sequence);

    @Override
    public int compareTo(GlobalPosition other) {
        return ORDER.compare(this, other);
    }
}
