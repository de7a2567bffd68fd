package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.eventstore.AppendInterceptor.StoredEvent;
import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link EventStore} on PostgreSQL (schema {@code db/framework/V1.0.1__event_store.sql}).
 *
 * <p>The {@code es_stream} row is the optimistic lock: an append moves its version from the expected one to the new
 * one with a conditional {@code UPDATE} (or creates it with {@code INSERT … ON CONFLICT DO NOTHING}), so a racing
 * append blocks on the row, then finds the version moved and fails. The check and the insert of the events are one
 * statement (the check a data-modifying CTE the insert reads from), so an append costs one round trip plus the
 * interceptors' (ADR 0017). Global reads use the transaction-id watermark described in ADR 0002.
 */
public final class JdbcEventStore implements EventStore {

    // The text form of transaction_id gets its own alias: under its column's name, "order by transaction_id" would
    // sort by the text ("1000" before "949").
    private static final String EVENT_COLUMNS = "stream_id, version, global_sequence, transaction_id::text as txid,"
            + " event_id, type, schema_version, occurred_at, correlation_id, causation_id, traceparent, tracestate,"
            + " payload::text";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final EventSerializer serializer;
    private final List<AppendInterceptor> interceptors;
    private final Clock clock;

    public JdbcEventStore(
            JdbcTemplate jdbc,
            TransactionTemplate transactions,
            EventSerializer serializer,
            List<AppendInterceptor> interceptors,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.serializer = serializer;
        this.interceptors = List.copyOf(interceptors);
        this.clock = clock;
    }

    @Override
    public AppendResult append(String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("nothing to append to " + streamId);
        }
        return transactions.execute(status -> appendInTransaction(streamId, expected, events, metadata));
    }

    private AppendResult appendInTransaction(
            String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata) {
        int count = events.size();
        // One statement, one round trip: the es_stream row moves (or is created) in a data-modifying CTE, and the
        // events are inserted only from its RETURNING row, numbered back from the stream's new version. A moved
        // version means no row, hence no events: a conflict.
        List<Object> args = new ArrayList<>();
        StringBuilder sql = new StringBuilder("with stream as (");
        switch (expected) {
            case ExpectedVersion.Exactly(long version)
            when version == 0 -> {
                sql.append("insert into es_stream (stream_id, version) values (?, ?) on conflict do nothing");
                args.add(streamId);
                args.add((long) count);
            }
            case ExpectedVersion.Exactly(long version) -> {
                sql.append("update es_stream set version = ?, updated_at = now() where stream_id = ? and version = ?");
                args.add(version + count);
                args.add(streamId);
                args.add(version);
            }
            case ExpectedVersion.Any any -> {
                sql.append("insert into es_stream (stream_id, version) values (?, ?) on conflict (stream_id)"
                        + " do update set version = es_stream.version + excluded.version, updated_at = now()");
                args.add(streamId);
                args.add((long) count);
            }
        }
        sql.append(" returning version)"
                + " insert into es_event (stream_id, version, event_id, type, schema_version, occurred_at,"
                + " correlation_id, causation_id, traceparent, tracestate, payload)"
                + " select ?, stream.version - ? + e.n, e.event_id, e.type, e.schema_version, ?::timestamptz, ?, ?, ?,"
                + " ?, e.payload from stream, (values ");
        Instant occurredAt = clock.instant().truncatedTo(ChronoUnit.MICROS);
        args.add(streamId);
        args.add((long) count);
        args.add(Timestamp.from(occurredAt));
        args.add(metadata.correlationId());
        args.add(metadata.causationId());
        args.add(metadata.traceparent());
        args.add(metadata.tracestate());
        List<UUID> ids = new ArrayList<>(count);
        List<String> payloads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            EventType type = serializer.typeOf(events.get(i));
            UUID eventId = UUID.randomUUID();
            String payload = serializer.serialize(events.get(i));
            ids.add(eventId);
            payloads.add(payload);
            sql.append(i == 0 ? "" : ", ").append("(?::bigint, ?::uuid, ?::text, ?::int, ?::jsonb)");
            args.add((long) i + 1);
            args.add(eventId);
            args.add(type.name());
            args.add(type.currentVersion());
            args.add(payload);
        }
        sql.append(") as e (n, event_id, type, schema_version, payload)"
                + " returning version, global_sequence, transaction_id::text");
        // RETURNING order is not guaranteed: the rows are placed by their versions.
        SortedMap<Long, GlobalPosition> positions = new TreeMap<>();
        jdbc.query(
                sql.toString(),
                rs -> {
                    positions.put(rs.getLong(1), new GlobalPosition(Long.parseLong(rs.getString(3)), rs.getLong(2)));
                },
                args.toArray());
        if (positions.isEmpty()) {
            long expectedVersion = expected instanceof ExpectedVersion.Exactly(long version) ? version : 0;
            throw new ConcurrencyConflictException(streamId, expectedVersion, currentVersion(streamId));
        }
        long firstVersion = positions.firstKey();

        List<EventEnvelope<Object>> envelopes = new ArrayList<>(events.size());
        List<StoredEvent> stored = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            Object event = events.get(i);
            EventType type = serializer.typeOf(event);
            EventEnvelope<Object> envelope = new EventEnvelope<>(
                    ids.get(i),
                    streamId,
                    firstVersion + i,
                    positions.get(firstVersion + i),
                    type.name(),
                    type.currentVersion(),
                    occurredAt,
                    metadata.correlationId(),
                    metadata.causationId(),
                    metadata.traceparent(),
                    metadata.tracestate(),
                    event);
            envelopes.add(envelope);
            stored.add(new StoredEvent(envelope, payloads.get(i), type.published()));
        }
        for (AppendInterceptor interceptor : interceptors) {
            interceptor.appended(stored);
        }
        return new AppendResult(streamId, firstVersion + count - 1, List.copyOf(envelopes));
    }

    @Override
    public List<EventEnvelope<Object>> readStream(String streamId, long fromVersion) {
        return jdbc.query(
                "select " + EVENT_COLUMNS + " from es_event where stream_id = ? and version >= ? order by version",
                this::envelope,
                streamId,
                fromVersion);
    }

    @Override
    public Map<String, List<EventEnvelope<Object>>> readStreams(Collection<String> streamIds) {
        Map<String, List<EventEnvelope<Object>>> streams = new HashMap<>();
        streamIds.forEach(id -> streams.put(id, new ArrayList<>()));
        if (streamIds.isEmpty()) {
            return streams;
        }
        String[] ids = streamIds.toArray(String[]::new);
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement("select " + EVENT_COLUMNS
                            + " from es_event where stream_id = any(?) order by stream_id, version");
                    statement.setArray(1, connection.createArrayOf("text", ids));
                    return statement;
                },
                rs -> {
                    EventEnvelope<Object> event = envelope(rs, 0);
                    streams.get(event.streamId()).add(event);
                });
        return streams;
    }

    @Override
    public List<EventEnvelope<Object>> readAll(GlobalPosition after, int limit) {
        // Only transactions older than the oldest one still running are read: none of those can still commit,
        // so nothing can later appear before the last position returned (ADR 0002).
        return jdbc.query(
                "select " + EVENT_COLUMNS + " from es_event"
                        + " where (transaction_id, global_sequence) > (?::text::xid8, ?)"
                        + " and transaction_id < pg_snapshot_xmin(pg_current_snapshot())"
                        + " order by es_event.transaction_id, es_event.global_sequence limit ?",
                this::envelope,
                Long.toString(after.transactionId()),
                after.sequence(),
                limit);
    }

    /**
     * Every committed event after {@code after} in global order, without the running-transaction watermark. Only
     * correct while appends are locked out (as {@code ProjectionRebuilder} does), when no transaction can still add
     * an event below the last one read.
     */
    public List<EventEnvelope<Object>> readAllWhileWritesExcluded(GlobalPosition after, int limit) {
        return jdbc.query(
                "select " + EVENT_COLUMNS + " from es_event"
                        + " where (transaction_id, global_sequence) > (?::text::xid8, ?)"
                        + " order by es_event.transaction_id, es_event.global_sequence limit ?",
                this::envelope,
                Long.toString(after.transactionId()),
                after.sequence(),
                limit);
    }

    @Override
    public long currentVersion(String streamId) {
        List<Long> versions =
                jdbc.queryForList("select version from es_stream where stream_id = ?", Long.class, streamId);
        return versions.isEmpty() ? 0 : versions.getFirst();
    }

    private EventEnvelope<Object> envelope(ResultSet rs, int row) throws SQLException {
        String type = rs.getString(6);
        int schemaVersion = rs.getInt(7);
        return new EventEnvelope<>(
                rs.getObject(5, UUID.class),
                rs.getString(1),
                rs.getLong(2),
                new GlobalPosition(Long.parseLong(rs.getString(4)), rs.getLong(3)),
                type,
                schemaVersion,
                rs.getTimestamp(8).toInstant(),
                rs.getString(9),
                rs.getString(10),
                rs.getString(11),
                rs.getString(12),
                serializer.deserialize(type, schemaVersion, rs.getString(13)));
    }
}
