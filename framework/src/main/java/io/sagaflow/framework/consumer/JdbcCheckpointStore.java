package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.CheckpointStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link CheckpointStore} in {@code consumer_checkpoint}. Checkpoints are kept in memory as messages are handled and
 * written by {@link #flush()}, so a restart redelivers at most what was handled since the last flush; the idempotent
 * consumer makes those redeliveries harmless. {@link #load} gives a checkpoint not yet written first.
 *
 * <p>The last checkpoint written wins, even one before the stored one: a checkpoint names a sequence of one ringbuffer,
 * and after the shared cluster started that ringbuffer again the right one is the lower (ADR 0089). Going back only
 * redelivers.
 */
public final class JdbcCheckpointStore implements CheckpointStore {

    private final JdbcTemplate jdbc;
    private final Map<Key, Checkpoint> pending = new ConcurrentHashMap<>();

    public JdbcCheckpointStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<Checkpoint> load(String consumer, String topic) {
        Checkpoint remembered = pending.get(new Key(consumer, topic));
        if (remembered != null) {
            return Optional.of(remembered);
        }
        List<Checkpoint> checkpoints = jdbc.query(
                "select sequence, last_publish_time from consumer_checkpoint where consumer = ? and topic = ?",
                (row, n) -> new Checkpoint(row.getLong(1), row.getLong(2)),
                consumer,
                topic);
        return checkpoints.stream().findFirst();
    }

    @Override
    public void remember(String consumer, String topic, Checkpoint checkpoint) {
        pending.put(new Key(consumer, topic), checkpoint);
    }

    /** Writes the checkpoints remembered since the last flush. */
    public void flush() {
        for (Key key : List.copyOf(pending.keySet())) {
            Checkpoint checkpoint = pending.remove(key);
            if (checkpoint != null) {
                jdbc.update(
                        "insert into consumer_checkpoint (consumer, topic, sequence, last_publish_time)"
                                + " values (?, ?, ?, ?) on conflict (consumer, topic) do update set"
                                + " sequence = excluded.sequence, last_publish_time = excluded.last_publish_time,"
                                + " updated_at = now()",
                        key.consumer(),
                        key.topic(),
                        checkpoint.sequence(),
                        checkpoint.lastPublishTime());
            }
        }
    }

    private record Key(String consumer, String topic) {}
}
