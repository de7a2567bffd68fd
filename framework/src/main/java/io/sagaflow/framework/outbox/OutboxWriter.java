package io.sagaflow.framework.outbox;

import io.sagaflow.framework.eventstore.AppendInterceptor;
import io.sagaflow.framework.eventstore.EventEnvelope;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes an outbox row for every appended event whose type is published, inside the append's transaction, so the
 * rows exist if and only if the events do. Each row goes to bucket {@code hash(streamId) mod buckets}: one stream,
 * one bucket, one publisher at a time, hence per-stream order. After the commit it wakes the relays that hold those
 * buckets ({@link OutboxSignal#committed}).
 */
public final class OutboxWriter implements AppendInterceptor {

    private final JdbcTemplate jdbc;
    private final int buckets;
    private final OutboxSignal signal;

    public OutboxWriter(JdbcTemplate jdbc, int buckets, OutboxSignal signal) {
        this.jdbc = jdbc;
        this.buckets = buckets;
        this.signal = signal;
    }

    /** The bucket of {@code streamId}'s outbox rows. */
    public static int bucketOf(String streamId, int buckets) {
        return Math.floorMod(streamId.hashCode(), buckets);
    }

    @Override
    public void appended(List<StoredEvent> events) {
        List<StoredEvent> published =
                events.stream().filter(StoredEvent::published).toList();
        if (published.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder("insert into outbox (bucket, event_id, stream_id, stream_version, type,"
                + " schema_version, occurred_at, correlation_id, causation_id, traceparent, tracestate, payload)"
                + " values ");
        List<Object> args = new ArrayList<>(published.size() * 12);
        BitSet written = new BitSet(buckets);
        for (int i = 0; i < published.size(); i++) {
            EventEnvelope<Object> e = published.get(i).envelope();
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            int bucket = bucketOf(e.streamId(), buckets);
            written.set(bucket);
            args.add(bucket);
            args.add(e.eventId());
            args.add(e.streamId());
            args.add(e.version());
            args.add(e.type());
            args.add(e.schemaVersion());
            args.add(Timestamp.from(e.occurredAt()));
            args.add(e.correlationId());
            args.add(e.causationId());
            args.add(e.traceparent());
            args.add(e.tracestate());
            args.add(published.get(i).payloadJson());
        }
        jdbc.update(sql.toString(), args.toArray());
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    signal.committed(written);
                }
            });
        } else {
            signal.committed(written);
        }
    }
}
