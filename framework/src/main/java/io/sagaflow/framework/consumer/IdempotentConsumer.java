package io.sagaflow.framework.consumer;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.ExpiredRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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

    /**
     * Handles {@code events} with {@code handler} in one transaction, each unless {@code consumer} already processed
     * it (an event listed twice is handled once): the new ones go to {@link EventHandler#handleAll} together, in their
     * order. The records of the whole batch are inserted by one statement, in
     * the order of their ids, so two batches racing on the same events take their row locks in the same order and
     * cannot deadlock on them: the later one waits for the earlier one's commit and then skips those events. If any
     * handler throws, nothing of the batch commits.
     *
     * @return the ids of the events whose effects ran and committed (a modifiable set); the others were duplicates
     */
    public Set<UUID> processBatch(String consumer, List<EventEnvelope<Object>> events, EventHandler handler) {
        UUID[] ids =
                events.stream().map(EventEnvelope::eventId).distinct().sorted().toArray(UUID[]::new);
        return transactions.execute(status -> {
            Set<UUID> fresh = new HashSet<>(jdbc.query(
                    connection -> {
                        var statement =
                                connection.prepareStatement("insert into consumer_processed_event (consumer, event_id)"
                                        + " select ?, id from unnest(?::uuid[]) with ordinality as e (id, n)"
                                        + " order by n on conflict do nothing returning event_id");
                        statement.setString(1, consumer);
                        statement.setArray(2, connection.createArrayOf("uuid", ids));
                        return statement;
                    },
                    (rs, row) -> rs.getObject(1, UUID.class)));
            Set<UUID> applied = new HashSet<>(fresh.size());
            List<EventEnvelope<Object>> handled = new ArrayList<>(fresh.size());
            for (EventEnvelope<Object> event : events) {
                if (fresh.remove(event.eventId())) {
                    handled.add(event);
                    applied.add(event.eventId());
                }
            }
            if (!handled.isEmpty()) {
                handler.handleAll(handled);
            }
            return applied;
        });
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
        return ExpiredRows.delete(jdbc, "consumer_processed_event", "processed_at", retention, batchSize);
    }
}
