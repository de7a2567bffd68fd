package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.AppendInterceptor.StoredEvent;
import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link EventStore} on PostgreSQL (schema {@code db/framework/V1.0.1__event_store.sql}).
 *
 * <p>The {@code es_stream} row is the optimistic lock: an append moves its version from the expected one to the new
 * one with a conditional {@code UPDATE} (or creates it with {@code INSERT … ON CONFLICT DO NOTHING}), so a racing
 * append blocks on the row, then finds the version moved and fails. The check and the insert of the events are one
 * statement (the check a data-modifying CTE the insert reads from), and so is the insert of the {@link Outbox}'s rows
 * for its published events (ADR 0052): an append costs one round trip plus the interceptors' (ADR 0017), and so do
 * the appends of many streams made together ({@link #appendAll}, ADR 0022): the interceptors then see all their
 * events at once. Global reads use the transaction-id watermark described in ADR 0002. Appends that carry an
 * {@link IdempotencyKey} claim it first, in the same transaction, one statement for all of a call ({@link
 * IdempotencyKeys}, ADR 0070).
 */
public final class JdbcEventStore implements EventStore {

    // The text form of transaction_id gets its own alias: under its column's name, "order by transaction_id" would
    // sort by the text ("1000" before "949").
    private static final String EVENT_COLUMNS = "stream_id, version, global_sequence, transaction_id::text as txid,"
            + " event_id, type, schema_version, occurred_at, correlation_id, causation_id, traceparent, tracestate,"
            + " payload::text";

    /**
     * The appends of many streams in one statement, one round trip: the streams' rows move (or are created) in
     * data-modifying CTEs, and the events are inserted only for the streams whose rows did, numbered back from each
     * stream's new version. A stream whose version had moved returns no row, hence gets no events: a conflict. The
     * events are inserted in the order given, so each stream's events take ascending global sequence numbers. With
     * {@link #outboxed(String, String)}, the outbox rows of the events that have a bucket go in with them.
     */
    private static final String APPEND_MANY = """
            with batch as (
                select * from unnest(?::text[], ?::bigint[], ?::bigint[]) as b (stream_id, expected, added)
            ), moved as (
                update es_stream s set version = b.expected + b.added, updated_at = now() from batch b
                where b.expected > 0 and s.stream_id = b.stream_id and s.version = b.expected
                returning s.stream_id, s.version
            ), created as (
                insert into es_stream (stream_id, version) select stream_id, added from batch where expected = 0
                on conflict do nothing
                returning stream_id, version
            ), extended as (
                insert into es_stream (stream_id, version) select stream_id, added from batch where expected < 0
                on conflict (stream_id) do update set version = es_stream.version + excluded.version,
                    updated_at = now()
                returning stream_id, version
            ), stream as (
                select * from moved union all select * from created union all select * from extended
            ), e as (
                select * from unnest(?::text[], ?::bigint[], ?::uuid[], ?::text[], ?::int[], ?::text[], ?::text[],
                        ?::text[], ?::text[], ?::text[], ?::int[])
                    with ordinality as e (stream_id, n, event_id, type, schema_version, correlation_id, causation_id,
                        traceparent, tracestate, payload, bucket, ord)
            )""";

    private static final String INSERT_MANY = """
            insert into es_event (stream_id, version, event_id, type, schema_version, occurred_at, correlation_id,
                causation_id, traceparent, tracestate, payload)
            select e.stream_id, s.version - b.added + e.n, e.event_id, e.type, e.schema_version, ?::timestamptz,
                e.correlation_id, e.causation_id, e.traceparent, e.tracestate, e.payload::jsonb
            from e
            join stream s on s.stream_id = e.stream_id
            join batch b on b.stream_id = e.stream_id
            order by e.ord
            returning stream_id, version, global_sequence, transaction_id::text""";

    private static final String APPEND = APPEND_MANY + " " + INSERT_MANY;

    private static final String APPEND_WITH_OUTBOX = APPEND_MANY
            + outboxed(
                    "e.bucket, e.event_id, e.stream_id, s.version - b.added + e.n",
                    "from e join stream s on s.stream_id = e.stream_id join batch b on b.stream_id = e.stream_id"
                            + " where e.bucket is not null order by e.ord")
            + " " + INSERT_MANY;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final EventSerializer serializer;
    private final List<AppendInterceptor> interceptors;
    private final Outbox outbox;
    private final Clock clock;
    private final IdempotencyKeys idempotencyKeys;

    /**
     * @param outbox where the outbox rows of published events go, or {@code null} for a store that writes none
     */
    public JdbcEventStore(
            JdbcTemplate jdbc,
            TransactionTemplate transactions,
            EventSerializer serializer,
            List<AppendInterceptor> interceptors,
            Outbox outbox,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.serializer = serializer;
        this.interceptors = List.copyOf(interceptors);
        this.outbox = outbox;
        this.clock = clock;
        this.idempotencyKeys = new IdempotencyKeys(jdbc);
    }

    @Override
    public AppendResult append(String streamId, ExpectedVersion expected, List<?> events, EventMetadata metadata) {
        return appendAll(List.of(new StreamAppend(streamId, expected, events, metadata)))
                .getFirst();
    }

    @Override
    public List<AppendResult> appendAll(List<StreamAppend> appends) {
        Map<String, StreamWrite> writes = writesOf(appends);
        return transactions.execute(status -> appendInTransaction(appends, writes));
    }

    /** What each stream's version moves by: the appends of one stream merged, checked to follow on one another. */
    private static Map<String, StreamWrite> writesOf(List<StreamAppend> appends) {
        if (appends.isEmpty()) {
            throw new IllegalArgumentException("nothing to append");
        }
        Map<String, StreamWrite> writes = new LinkedHashMap<>();
        for (StreamAppend append : appends) {
            if (append.events().isEmpty()) {
                throw new IllegalArgumentException("nothing to append to " + append.streamId());
            }
            StreamWrite earlier = writes.get(append.streamId());
            if (earlier == null) {
                writes.put(
                        append.streamId(),
                        new StreamWrite(append.expected(), append.events().size()));
            } else if (follows(earlier, append.expected())) {
                writes.put(
                        append.streamId(),
                        new StreamWrite(
                                earlier.expected(),
                                earlier.added() + append.events().size()));
            } else {
                throw new IllegalArgumentException("the appends to " + append.streamId() + " do not follow on one"
                        + " another: " + append.expected() + " after " + earlier);
            }
        }
        return writes;
    }

    private static boolean follows(StreamWrite earlier, ExpectedVersion next) {
        return switch (earlier.expected()) {
            case ExpectedVersion.Any any -> next instanceof ExpectedVersion.Any;
            case ExpectedVersion.Exactly(long version) ->
                next instanceof ExpectedVersion.Exactly(long nextVersion) && nextVersion == version + earlier.added();
        };
    }

    private List<AppendResult> appendInTransaction(List<StreamAppend> appends, Map<String, StreamWrite> writes) {
        claimIdempotencyKeys(appends);
        int count = appends.stream().mapToInt(append -> append.events().size()).sum();
        EventRows rows = new EventRows(count);
        Map<String, Long> numbered = new HashMap<>();
        for (StreamAppend append : appends) {
            long n = numbered.getOrDefault(append.streamId(), 0L);
            for (Object event : append.events()) {
                EventType type = serializer.typeOf(event);
                Integer bucket = outbox != null && type.published() ? outbox.bucketOf(append.streamId()) : null;
                rows.add(append.streamId(), ++n, type, serializer.serialize(event), bucket, append);
            }
            numbered.put(append.streamId(), n);
        }
        Instant occurredAt = clock.instant().truncatedTo(ChronoUnit.MICROS);
        // (stream, version) -> position; RETURNING order is not guaranteed.
        Map<String, SortedMap<Long, GlobalPosition>> positions = new HashMap<>();
        RowCallbackHandler positioned = rs -> {
            positions
                    .computeIfAbsent(rs.getString(1), id -> new TreeMap<>())
                    .put(rs.getLong(2), new GlobalPosition(Long.parseLong(rs.getString(4)), rs.getLong(3)));
        };
        if (writes.size() == 1) {
            Map.Entry<String, StreamWrite> write = writes.entrySet().iterator().next();
            appendToOne(write.getKey(), write.getValue(), rows, occurredAt, positioned);
        } else {
            appendToMany(writes, rows, occurredAt, positioned);
        }
        for (Map.Entry<String, StreamWrite> write : writes.entrySet()) {
            if (!positions.containsKey(write.getKey())) {
                long expectedVersion =
                        write.getValue().expected() instanceof ExpectedVersion.Exactly(long version) ? version : 0;
                throw new ConcurrencyConflictException(write.getKey(), expectedVersion, currentVersion(write.getKey()));
            }
        }
        if (rows.outboxed()) {
            outbox.written(rows.writtenBuckets());
        }

        List<AppendResult> results = new ArrayList<>(appends.size());
        List<StoredEvent> stored = new ArrayList<>(count);
        int row = 0;
        for (StreamAppend append : appends) {
            SortedMap<Long, GlobalPosition> streamPositions = positions.get(append.streamId());
            // The stream's new versions, numbered back as the statement did.
            long base =
                    streamPositions.lastKey() - writes.get(append.streamId()).added();
            List<EventEnvelope<Object>> envelopes =
                    new ArrayList<>(append.events().size());
            for (Object event : append.events()) {
                long version = base + rows.numbers[row];
                EventEnvelope<Object> envelope = new EventEnvelope<>(
                        rows.eventIds[row],
                        append.streamId(),
                        version,
                        streamPositions.get(version),
                        rows.types[row],
                        rows.schemaVersions[row],
                        occurredAt,
                        append.metadata().correlationId(),
                        append.metadata().causationId(),
                        append.metadata().traceparent(),
                        append.metadata().tracestate(),
                        event);
                envelopes.add(envelope);
                stored.add(new StoredEvent(envelope, rows.payloads[row], rows.published[row]));
                row++;
            }
            results.add(new AppendResult(append.streamId(), envelopes.getLast().version(), List.copyOf(envelopes)));
        }
        for (AppendInterceptor interceptor : interceptors) {
            interceptor.appended(stored);
        }
        return results;
    }

    /**
     * Records the appends' idempotency keys before their events, one statement for all (ADR 0070): a key used
     * before fails the call before anything else is written, and a key another transaction is writing makes this
     * one wait for its outcome.
     */
    private void claimIdempotencyKeys(List<StreamAppend> appends) {
        List<IdempotencyKeys.Claim> claims = null;
        for (StreamAppend append : appends) {
            if (append.idempotencyKey() != null) {
                if (claims == null) {
                    claims = new ArrayList<>();
                }
                claims.add(new IdempotencyKeys.Claim(append.idempotencyKey(), append.streamId()));
            }
        }
        if (claims != null) {
            idempotencyKeys.claim(claims);
        }
    }

    /**
     * One stream's events: the statement of ADR 0017, the stream's row moved (or created) in a data-modifying CTE
     * and the events inserted from its {@code RETURNING} row. Cheaper to plan and run than {@link #APPEND} for one
     * stream, which is most appends (an HTTP request's, a batch of one).
     */
    private void appendToOne(
            String streamId, StreamWrite write, EventRows rows, Instant occurredAt, RowCallbackHandler positioned) {
        List<Object> args = new ArrayList<>();
        StringBuilder sql = new StringBuilder("with stream as (");
        switch (write.expected()) {
            case ExpectedVersion.Exactly(long version)
            when version == 0 -> {
                sql.append("insert into es_stream (stream_id, version) values (?, ?) on conflict do nothing");
                args.add(streamId);
                args.add((long) write.added());
            }
            case ExpectedVersion.Exactly(long version) -> {
                sql.append("update es_stream set version = ?, updated_at = now() where stream_id = ? and version = ?");
                args.add(version + write.added());
                args.add(streamId);
                args.add(version);
            }
            case ExpectedVersion.Any any -> {
                sql.append("insert into es_stream (stream_id, version) values (?, ?) on conflict (stream_id)"
                        + " do update set version = es_stream.version + excluded.version, updated_at = now()");
                args.add(streamId);
                args.add((long) write.added());
            }
        }
        sql.append(" returning version), e (n, event_id, type, schema_version, payload, correlation_id, causation_id,"
                + " traceparent, tracestate, outboxed) as (values ");
        for (int i = 0; i < rows.size; i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append("(?::bigint, ?::uuid, ?::text, ?::int, ?::text, ?::text, ?::text, ?::text, ?::text,"
                            + " ?::boolean)");
            args.add(rows.numbers[i]);
            args.add(rows.eventIds[i]);
            args.add(rows.types[i]);
            args.add(rows.schemaVersions[i]);
            args.add(rows.payloads[i]);
            args.add(rows.correlationIds[i]);
            args.add(rows.causationIds[i]);
            args.add(rows.traceparents[i]);
            args.add(rows.tracestates[i]);
            args.add(rows.buckets[i] != null);
        }
        sql.append(")");
        if (rows.outboxed()) {
            sql.append(outboxed(
                    "?, e.event_id, ?, stream.version - ? + e.n", "from stream, e where e.outboxed order by e.n"));
            args.add(outbox.bucketOf(streamId));
            args.add(streamId);
            args.add((long) write.added());
            args.add(Timestamp.from(occurredAt));
        }
        sql.append(" insert into es_event (stream_id, version, event_id, type, schema_version, occurred_at,"
                + " correlation_id, causation_id, traceparent, tracestate, payload)"
                + " select ?, stream.version - ? + e.n, e.event_id, e.type, e.schema_version, ?::timestamptz,"
                + " e.correlation_id, e.causation_id, e.traceparent, e.tracestate, e.payload::jsonb from stream, e"
                + " returning stream_id, version, global_sequence, transaction_id::text");
        args.add(streamId);
        args.add((long) write.added());
        args.add(Timestamp.from(occurredAt));
        jdbc.query(sql.toString(), positioned, args.toArray());
    }

    /**
     * Many streams' events in one statement, {@link #APPEND} (or {@link #APPEND_WITH_OUTBOX}), its columns passed as
     * arrays.
     */
    private void appendToMany(
            Map<String, StreamWrite> writes, EventRows rows, Instant occurredAt, RowCallbackHandler positioned) {
        int streams = writes.size();
        String[] streamIds = new String[streams];
        Long[] expected = new Long[streams];
        Long[] added = new Long[streams];
        int s = 0;
        for (Map.Entry<String, StreamWrite> write : writes.entrySet()) {
            streamIds[s] = write.getKey();
            expected[s] = write.getValue().expected() instanceof ExpectedVersion.Exactly(long version) ? version : -1L;
            added[s] = (long) write.getValue().added();
            s++;
        }
        boolean outboxed = rows.outboxed();
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement(outboxed ? APPEND_WITH_OUTBOX : APPEND);
                    statement.setArray(1, connection.createArrayOf("text", streamIds));
                    statement.setArray(2, connection.createArrayOf("int8", expected));
                    statement.setArray(3, connection.createArrayOf("int8", added));
                    statement.setArray(4, connection.createArrayOf("text", rows.streamIds));
                    statement.setArray(5, connection.createArrayOf("int8", rows.numbers));
                    statement.setArray(6, connection.createArrayOf("uuid", rows.eventIds));
                    statement.setArray(7, connection.createArrayOf("text", rows.types));
                    statement.setArray(8, connection.createArrayOf("int4", rows.schemaVersions));
                    statement.setArray(9, connection.createArrayOf("text", rows.correlationIds));
                    statement.setArray(10, connection.createArrayOf("text", rows.causationIds));
                    statement.setArray(11, connection.createArrayOf("text", rows.traceparents));
                    statement.setArray(12, connection.createArrayOf("text", rows.tracestates));
                    statement.setArray(13, connection.createArrayOf("text", rows.payloads));
                    statement.setArray(14, connection.createArrayOf("int4", rows.buckets));
                    statement.setTimestamp(15, Timestamp.from(occurredAt));
                    if (outboxed) {
                        statement.setTimestamp(16, Timestamp.from(occurredAt));
                    }
                    return statement;
                },
                positioned);
    }

    /**
     * The data-modifying CTE that inserts the outbox rows of an append (ADR 0052), after the events' CTE {@code e}:
     * the rows' bucket, event id, stream id and version come from {@code keys}, the rest from {@code e}, and
     * {@code from} says which events, in what order (the relay publishes a bucket's rows in id order). It reads the
     * same {@code stream} rows the events' insert does, so a stream whose version had moved gets no rows either.
     */
    private static String outboxed(String keys, String from) {
        return ", outboxed as (insert into outbox (bucket, event_id, stream_id, stream_version, type, schema_version,"
                + " occurred_at, correlation_id, causation_id, traceparent, tracestate, payload)"
                + " select " + keys + ", e.type, e.schema_version, ?::timestamptz, e.correlation_id, e.causation_id,"
                + " e.traceparent, e.tracestate, e.payload " + from + ")";
    }

    /** The merged write of one stream: the version its first append expects, and how many events it adds. */
    private record StreamWrite(ExpectedVersion expected, int added) {}

    /** The events of an append, column by column, as the statement takes them. */
    private static final class EventRows {
        final String[] streamIds;
        final Long[] numbers;
        final UUID[] eventIds;
        final String[] types;
        final Integer[] schemaVersions;
        final String[] correlationIds;
        final String[] causationIds;
        final String[] traceparents;
        final String[] tracestates;
        final String[] payloads;
        final boolean[] published;
        /** The outbox bucket of each event that gets an outbox row, {@code null} for the others. */
        final Integer[] buckets;

        int size;

        EventRows(int count) {
            streamIds = new String[count];
            numbers = new Long[count];
            eventIds = new UUID[count];
            types = new String[count];
            schemaVersions = new Integer[count];
            correlationIds = new String[count];
            causationIds = new String[count];
            traceparents = new String[count];
            tracestates = new String[count];
            payloads = new String[count];
            published = new boolean[count];
            buckets = new Integer[count];
        }

        void add(String streamId, long number, EventType type, String payload, Integer bucket, StreamAppend append) {
            streamIds[size] = streamId;
            numbers[size] = number;
            eventIds[size] = TimeOrderedIds.next();
            types[size] = type.name();
            schemaVersions[size] = type.currentVersion();
            correlationIds[size] = append.metadata().correlationId();
            causationIds[size] = append.metadata().causationId();
            traceparents[size] = append.metadata().traceparent();
            tracestates[size] = append.metadata().tracestate();
            payloads[size] = payload;
            published[size] = type.published();
            buckets[size] = bucket;
            size++;
        }

        /** Whether any event gets an outbox row. */
        boolean outboxed() {
            for (int i = 0; i < size; i++) {
                if (buckets[i] != null) {
                    return true;
                }
            }
            return false;
        }

        BitSet writtenBuckets() {
            BitSet written = new BitSet();
            for (int i = 0; i < size; i++) {
                if (buckets[i] != null) {
                    written.set(buckets[i]);
                }
            }
            return written;
        }
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
        Map<String, Long> fromStart = new LinkedHashMap<>();
        streamIds.forEach(id -> fromStart.put(id, 0L));
        return readStreamsAfter(fromStart);
    }

    @Override
    public Map<String, List<EventEnvelope<Object>>> readStreamsAfter(Map<String, Long> afterVersions) {
        Map<String, List<EventEnvelope<Object>>> streams = new HashMap<>();
        afterVersions.keySet().forEach(id -> streams.put(id, new ArrayList<>()));
        if (afterVersions.isEmpty()) {
            return streams;
        }
        String[] ids = afterVersions.keySet().toArray(String[]::new);
        Long[] after = afterVersions.values().toArray(Long[]::new);
        jdbc.query(
                connection -> {
                    // The unnest's columns are named apart from es_event's, so EVENT_COLUMNS stay unambiguous.
                    var statement = connection.prepareStatement("select " + EVENT_COLUMNS
                            + " from es_event join unnest(?::text[], ?::bigint[]) as wanted (wanted_stream, after)"
                            + " on es_event.stream_id = wanted.wanted_stream and es_event.version > wanted.after"
                            + " order by es_event.stream_id, es_event.version");
                    statement.setArray(1, connection.createArrayOf("text", ids));
                    statement.setArray(2, connection.createArrayOf("bigint", after));
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
