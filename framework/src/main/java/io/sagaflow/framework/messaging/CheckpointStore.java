package io.sagaflow.framework.messaging;

import java.util.Optional;

/** Where each consumer resumes on each topic of the shared cluster after a restart. */
public interface CheckpointStore {

    /** Where {@code consumer} resumes on {@code topic}, if a checkpoint was stored. */
    Optional<Checkpoint> load(String consumer, String topic);

    /**
     * Notes that {@code consumer} has handled the messages of {@code topic} before {@code checkpoint}; may be stored
     * later. The checkpoint replaces the one noted before.
     */
    void remember(String consumer, String topic, Checkpoint checkpoint);
}
