package io.sagaflow.framework.domain;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * New ids as time-ordered UUIDs, version 7 of RFC 9562: the first 48 bits are the Unix time in milliseconds, the
 * other 74 (besides version and variant) come from a {@link SecureRandom}, as in {@link UUID#randomUUID()}.
 *
 * <p>Why (ADR 0064): every id the services make is a key of a B-tree index (events, streams, views, processed-event
 * records). A random id lands on a random leaf page of an index that outgrows the buffer cache, and after each
 * checkpoint the first change to a page writes all of it to the WAL. Ids made a millisecond apart land on the same few
 * rightmost pages, which stay cached and are written whole once per checkpoint.
 *
 * <p>Ids of one millisecond are in random order among themselves; nothing may rely on ids to order events (the event
 * store's global position does that, ADR 0002). An id tells when it was made, to the millisecond, and no more.
 */
public final class TimeOrderedIds {

    private static final long VERSION_7 = 0x7000L;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final TimeOrderedIds SYSTEM = new TimeOrderedIds(Clock.systemUTC());

    private final Clock clock;

    /** Ids stamped with the time of {@code clock}. */
    public TimeOrderedIds(Clock clock) {
        this.clock = clock;
    }

    /** A new id stamped with the system clock. */
    public static UUID next() {
        return SYSTEM.nextId();
    }

    /** A new id stamped with this generator's clock. */
    public UUID nextId() {
        // One call, as UUID.randomUUID() makes: each call on the shared SecureRandom takes its lock.
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        ByteBuffer bits = ByteBuffer.wrap(random);
        return of(clock.millis(), bits.getLong(), bits.getLong());
    }

    /** The id of {@code epochMillis} with the given random bits (of which 12 and 62 are used). */
    static UUID of(long epochMillis, long randomHigh, long randomLow) {
        if (epochMillis < 0 || epochMillis >>> 48 != 0) {
            throw new IllegalArgumentException("not a 48-bit Unix time in milliseconds: " + epochMillis);
        }
        long mostSignificant = epochMillis << 16 | VERSION_7 | randomHigh & 0x0FFFL;
        long leastSignificant = VARIANT_RFC | randomLow >>> 2;
        return new UUID(mostSignificant, leastSignificant);
    }

    /** When {@code id}, a version-7 id, was made, in Unix milliseconds. */
    public static long epochMillisOf(UUID id) {
        if (id.version() != 7) {
            throw new IllegalArgumentException("not a time-ordered (version 7) id: " + id);
        }
        return id.getMostSignificantBits() >>> 16;
    }
}
