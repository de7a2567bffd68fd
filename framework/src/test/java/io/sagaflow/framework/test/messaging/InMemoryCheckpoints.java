package io.sagaflow.framework.test.messaging;

import io.sagaflow.framework.messaging.CheckpointStore;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checkpoints kept in memory, per consumer and topic. A test observer subscribed with a fresh instance reads every
 * topic from its oldest message still held; a consumer resubscribed with the same instance resumes where it was.
 */
public final class InMemoryCheckpoints implements CheckpointStore {

    private final Map<String, Long> sequences = new ConcurrentHashMap<>();

    @Override
    public OptionalLong load(String consumer, String topic) {
        Long sequence = sequences.get(consumer + " " + topic);
        return sequence == null ? OptionalLong.empty() : OptionalLong.of(sequence);
    }

    @Override
    public void remember(String consumer, String topic, long sequence) {
        sequences.merge(consumer + " " + topic, sequence, Math::max);
    }
}
