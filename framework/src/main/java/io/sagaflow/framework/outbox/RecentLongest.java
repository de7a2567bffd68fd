package io.sagaflow.framework.outbox;

import java.time.Duration;
import java.time.Instant;

/**
 * The longest of the durations recorded over the last one to two windows: two windows kept, the current and the one
 * before, so that a value stays for at least a window and at most two. Not thread-safe: the relay's own thread records
 * and reads it.
 */
final class RecentLongest {

    private final Duration window;
    private Instant currentStart = Instant.EPOCH;
    private Duration current = Duration.ZERO;
    private Duration previous = Duration.ZERO;

    RecentLongest(Duration window) {
        this.window = window;
    }

    void record(Duration value, Instant now) {
        rotate(now);
        if (value.compareTo(current) > 0) {
            current = value;
        }
    }

    /** The longest value recorded in the current window and the one before, as of {@code now}. */
    Duration over(Instant now) {
        rotate(now);
        return current.compareTo(previous) >= 0 ? current : previous;
    }

    private void rotate(Instant now) {
        Instant end = currentStart.plus(window);
        if (now.isBefore(end)) {
            return;
        }
        // The window just ended becomes the previous one; one that ended longer ago than a window leaves nothing.
        previous = now.isBefore(end.plus(window)) ? current : Duration.ZERO;
        current = Duration.ZERO;
        currentStart = now;
    }
}
