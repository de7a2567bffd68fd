package io.sagaflow.framework.messaging;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How long one of the loops that handle messages in batches (a relay, a consumer lane, a saga lane) waits for more
 * before it handles a small batch, so that messages a few milliseconds apart share a transaction (ADR 0044).
 *
 * <p>A loop lingers only while it is busy: when its previous round began less than {@link #BUSY_ROUNDS} lingers
 * before this one. Then another message is likely to come within the linger; a quiet loop, whose messages come further
 * apart than that, handles each at once, so a lone request pays no linger. Not thread-safe: one loop, one linger.
 */
public final class Linger {

    /** The longest linger allowed: a saga passes several loops, each of which may add its linger. */
    public static final Duration MOST = Duration.ofMillis(50);

    /** A loop whose rounds begin less than this many lingers apart is busy. */
    static final int BUSY_ROUNDS = 4;

    private final Duration duration;
    private final long busyWithinNanos;
    private final LongSupplier nanoTime;
    private long lastRound;
    private boolean anyRound;

    private Linger(Duration duration, LongSupplier nanoTime) {
        if (duration.isNegative() || duration.compareTo(MOST) > 0) {
            throw new IllegalArgumentException("linger must be between 0 and " + MOST + ": " + duration);
        }
        this.duration = duration;
        this.busyWithinNanos = duration.toNanos() * BUSY_ROUNDS;
        this.nanoTime = nanoTime;
    }

    /** A linger of {@code duration}, from zero (none) to {@link #MOST}. */
    public static Linger of(Duration duration) {
        return new Linger(duration, System::nanoTime);
    }

    static Linger of(Duration duration, LongSupplier nanoTime) {
        return new Linger(duration, nanoTime);
    }

    /** Checks a duration as {@link #of} would, for settings that build their lingers later. */
    public static Duration checked(Duration duration) {
        return of(duration).duration();
    }

    public Duration duration() {
        return duration;
    }

    /**
     * Records that a round begins now and answers whether it should wait the linger for more: only if there is a
     * linger and the loop is busy.
     */
    public boolean roundBegins() {
        long now = nanoTime.getAsLong();
        boolean busy = anyRound && now - lastRound < busyWithinNanos;
        lastRound = now;
        anyRound = true;
        return busy;
    }

    /** Sleeps the linger. */
    public void sleep() throws InterruptedException {
        Thread.sleep(duration);
    }
}
