package io.sagaflow.framework.test.messaging;

import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.CheckpointStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checkpoints kept in memory, per consumer and topic, the last one remembered winning as in the database. A test
 * observer subscribed with a fresh instance reads every topic from its oldest message still held; a consumer
 * resubscribed with the same instance resumes where it was.
 */
public final class InMemoryCheckpoints implements CheckpointStore {

    private final Map<String, Checkpoint> checkpoints = new ConcurrentHashMap<>();

    @Override
    public Optional<Checkpoint> load(String consumer, String topic) {
        return Optional.ofNullable(checkpoints.get(consumer + " " + topic));
    }

    @Override
    public void remember(String consumer, String topic, Checkpoint checkpoint) {
        checkpoints.put(consumer + " " + topic, checkpoint);
    }
}
