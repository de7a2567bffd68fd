package io.sagaflow.order.fulfilment.application;

import java.util.Comparator;
import java.util.UUID;

/**
 * PostgreSQL's order of {@code uuid} values: their 16 bytes compared unsigned, which is also the order of their
 * lowercase canonical strings. {@link UUID#compareTo} compares the two halves as signed longs and so disagrees for ids
 * with the top bit of either half set; a merge of pages that PostgreSQL sorted must compare with this one.
 */
public final class UuidOrder {

    /** PostgreSQL's {@code order by} for {@code uuid} columns. */
    public static final Comparator<UUID> POSTGRES = (a, b) -> {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    };

    private UuidOrder() {}
}
