package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.CheckpointStore;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link CheckpointStore} in {@code consumer_checkpoint}. Sequences are kept in memory as messages arrive and written
 * by {@link #flush()}, so a restart redelivers at most what arrived since the last flush; the idempotent consumer
 * makes those redeliveries harmless.
 */
public final class JdbcCheckpointStore implements CheckpointStore {

    private final JdbcTemplate jdbc;
    private final Map<Key, Long> pending = new ConcurrentHashMap<>();

    public JdbcCheckpointStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public OptionalLong load(String consumer, int shard) {
        List<Long> sequences = jdbc.queryForList(
                "select sequence from consumer_checkpoint where consumer = ? and shard = ?",
                Long.class,
                consumer,
                shard);
        return sequences.isEmpty() ? OptionalLong.empty() : OptionalLong.of(sequences.getFirst());
    }

    @Override
    public void remember(String consumer, int shard, long sequence) {
        pending.merge(new Key(consumer, shard), sequence, Math::max);
    }

    /** Writes the sequences remembered since the last flush. */
    public void flush() {
        for (Key key : List.copyOf(pending.keySet())) {
            Long sequence = pending.remove(key);
            if (sequence != null) {
                jdbc.update(
                        "insert into consumer_checkpoint (consumer, shard, sequence) values (?, ?, ?)"
                                + " on conflict (consumer, shard) do update set sequence = greatest("
                                + "consumer_checkpoint.sequence, excluded.sequence), updated_at = now()",
                        key.consumer(),
                        key.shard(),
                        sequence);
            }
        }
    }

    private record Key(String consumer, int shard) {}
}
