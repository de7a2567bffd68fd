package io.sagaflow.framework.consumer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each consumer's count of dead letters, as the {@code sagaflow.consumer.dead.letters} gauges read it (ADR 0100).
 *
 * <p>A gauge reads the last count. A read that finds it older than {@link #MAX_AGE}, or finds that a letter was kept
 * or forgotten since, has everything counted again on a thread of its own: a scrape never waits for the database,
 * even while it is away, the database is asked at most once per {@link #MAX_AGE} however many gauges are read, and not
 * at all while nobody reads them, so an idle service pays nothing for it. The letters are the service's, kept by all
 * its replicas in one table, so every replica reports the same count.
 */
final class DeadLetterCounts {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterCounts.class);

    /** How old a count may be before a read has it counted again. */
    static final Duration MAX_AGE = Duration.ofSeconds(10);

    private final DeadLetters deadLetters;
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final AtomicBoolean counting = new AtomicBoolean();
    private volatile boolean everCounted;
    private volatile boolean changed = true;
    private volatile long countedAt;

    DeadLetterCounts(DeadLetters deadLetters) {
        this.deadLetters = deadLetters;
    }

    /**
     * {@code consumer}'s count as last counted (while the database is away, the last it gave); NaN until it has been
     * counted once.
     */
    double of(String consumer) {
        if (changed || System.nanoTime() - countedAt > MAX_AGE.toNanos()) {
            countAgain();
        }
        Integer count = counts.get(consumer);
        return count != null ? count : everCounted ? 0 : Double.NaN;
    }

    /** {@code consumer} read its letters, {@code count} of them, just now. */
    void counted(String consumer, int count) {
        counts.put(consumer, count);
    }

    /** A letter was kept or forgotten: the next read counts again. */
    void changed() {
        changed = true;
    }

    private void countAgain() {
        if (!counting.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("dead-letter-counts").start(() -> {
            try {
                changed = false; // a change from now on is counted by the next read
                Map<String, Integer> now = deadLetters.counts();
                counts.keySet().retainAll(now.keySet());
                counts.putAll(now);
                everCounted = true;
                countedAt = System.nanoTime();
            } catch (RuntimeException e) {
                changed = true;
                log.debug("could not count the dead letters", e);
            } finally {
                counting.set(false);
            }
        });
    }
}
