package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.EventMessage;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The messages each consumer gave up on after its attempts, kept whole in {@code consumer_dead_letter} (ADR 0100):
 * what a consumer was delivered is never lost, even when it cannot handle it, and it can be tried again.
 */
public final class DeadLetters {

    private final JdbcTemplate jdbc;

    public DeadLetters(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A message a consumer gave up on, why, and after how many attempts in all. */
    public record DeadLetter(String consumer, EventMessage message, String failure, int attempts) {}

    /** Keeps {@code message}, given up on by {@code consumer} for {@code failure}; a message kept already adds up. */
    public void park(String consumer, EventMessage message, Throwable failure, int attempts) {
        jdbc.update(
                "insert into consumer_dead_letter (consumer, event_id, source, stream_id, version, type, schema_version,"
                        + " occurred_at_micros, correlation_id, causation_id, traceparent, tracestate, payload, failure,"
                        + " attempts) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        + " on conflict (consumer, event_id) do update set failure = excluded.failure,"
                        + " attempts = consumer_dead_letter.attempts + excluded.attempts, failed_at = now()",
                consumer,
                UUID.fromString(message.eventId()),
                message.source(),
                message.streamId(),
                message.version(),
                message.type(),
                message.schemaVersion(),
                message.occurredAtMicros(),
                message.correlationId(),
                message.causationId(),
                message.traceparent(),
                message.tracestate(),
                message.payload(),
                String.valueOf(failure),
                attempts);
    }

    /** The messages {@code consumer} gave up on, the oldest first. */
    public List<DeadLetter> of(String consumer) {
        return jdbc.query(
                "select consumer, event_id, source, stream_id, version, type, schema_version, occurred_at_micros,"
                        + " correlation_id, causation_id, traceparent, tracestate, payload, failure, attempts"
                        + " from consumer_dead_letter where consumer = ? order by failed_at, event_id",
                (rs, row) -> new DeadLetter(
                        rs.getString("consumer"),
                        new EventMessage(
                                rs.getString("event_id"),
                                rs.getString("source"),
                                rs.getString("stream_id"),
                                rs.getLong("version"),
                                rs.getString("type"),
                                rs.getInt("schema_version"),
                                rs.getLong("occurred_at_micros"),
                                rs.getString("correlation_id"),
                                rs.getString("causation_id"),
                                rs.getString("traceparent"),
                                rs.getString("tracestate"),
                                rs.getString("payload")),
                        rs.getString("failure"),
                        rs.getInt("attempts")),
                consumer);
    }

    /** What an operator sees of a dead letter. */
    public record Summary(
            String consumer,
            String eventId,
            String type,
            String streamId,
            String failure,
            int attempts,
            OffsetDateTime failedAt) {}

    /** Every consumer's count of dead letters. */
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new TreeMap<>();
        jdbc.query("select consumer, count(*)::int from consumer_dead_letter group by consumer", rs -> {
            counts.put(rs.getString(1), rs.getInt(2));
        });
        return counts;
    }

    /** The {@code limit} oldest dead letters of all consumers. */
    public List<Summary> oldest(int limit) {
        return jdbc.query(
                "select consumer, event_id::text, type, stream_id, failure, attempts, failed_at from consumer_dead_letter"
                        + " order by failed_at, consumer, event_id limit ?",
                (rs, row) -> new Summary(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getInt(6),
                        rs.getObject(7, OffsetDateTime.class)),
                limit);
    }

    /** Forgets {@code consumer}'s dead letter of {@code eventId}: it was handled after all. */
    public void release(String consumer, String eventId) {
        jdbc.update(
                "delete from consumer_dead_letter where consumer = ? and event_id = ?",
                consumer,
                UUID.fromString(eventId));
    }
}
