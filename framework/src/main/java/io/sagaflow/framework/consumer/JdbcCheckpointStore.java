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
    public OptionalLong load(String consumer, String topic) {
        List<Long> sequences = jdbc.queryForList(
                "select sequence from consumer_checkpoint where consumer = ? and topic = ?",
                Long.class,
                consumer,
                topic);
        return sequences.isEmpty() ? OptionalLong.empty() : OptionalLong.of(sequences.getFirst());
    }

    @Override
    public void remember(String consumer, String topic, long sequence) {
        pending.merge(new Key(consumer, topic), sequence, Math::max);
    }

    /** Writes the sequences remembered since the last flush. */
    public void flush() {
        for (Key key : List.copyOf(pending.keySet())) {
            Long sequence = pending.remove(key);
            if (sequence != null) {
                jdbc.update(
                        "insert into consumer_checkpoint (consumer, topic, sequence) values (?, ?, ?)"
                                + " on conflict (consumer, topic) do update set sequence = greatest("
                                + "consumer_checkpoint.sequence, excluded.sequence), updated_at = now()",
                        key.consumer(),
                        key.topic(),
                        sequence);
            }
        }
    }

    private record Key(String consumer, String topic) {}
}
