package io.sagaflow.framework.consumer;

import java.time.Duration;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a consumer's effects at most once per (consumer, event id). The record of processing is inserted in the same
 * transaction as the effects: if the effects roll back, so does the record, and the redelivery tries again; if they
 * commit, every later delivery of that event to that consumer is skipped. Two deliveries racing: the second insert
 * waits on the first's row and then skips. Different consumers of one event never suppress each other.
 */
public final class IdempotentConsumer {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public IdempotentConsumer(JdbcTemplate jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /**
     * Runs {@code effects} in a transaction unless {@code consumer} already processed {@code eventId}.
     *
     * @return true if the effects ran and committed, false for a duplicate
     */
    public boolean process(String consumer, UUID eventId, Runnable effects) {
        Boolean applied = transactions.execute(status -> {
            int recorded = jdbc.update(
                    "insert into consumer_processed_event (consumer, event_id) values (?, ?) on conflict do nothing",
                    consumer,
                    eventId);
            if (recorded == 0) {
                return false;
            }
            effects.run();
            return true;
        });
        return Boolean.TRUE.equals(applied);
    }

    /** Whether {@code consumer} has processed {@code eventId} (within the retention window). */
    public boolean hasProcessed(String consumer, UUID eventId) {
        Integer count = jdbc.queryForObject(
                "select count(*) from consumer_processed_event where consumer = ? and event_id = ?",
                Integer.class,
                consumer,
                eventId);
        return count != null && count > 0;
    }

    /**
     * Deletes processing records older than {@code retention}, in batches of {@code batchSize}. The retention must
     * exceed the longest time an event can be redelivered (the shared topic's ringbuffer TTL).
     *
     * @return how many records were deleted
     */
    public int prune(Duration retention, int batchSize) {
        int total = 0;
        int deleted;
        do {
            deleted = jdbc.update(
                    "delete from consumer_processed_event where ctid in (select ctid from consumer_processed_event"
                            + " where processed_at < now() - make_interval(secs => ?) limit ?)",
                    (double) retention.toSeconds(),
                    batchSize);
            total += deleted;
        } while (deleted == batchSize);
        return total;
    }
}
