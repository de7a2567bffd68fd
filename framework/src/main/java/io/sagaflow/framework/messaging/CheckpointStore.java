package io.sagaflow.framework.messaging;

import java.util.OptionalLong;

/** Where each consumer resumes on each topic of the shared cluster after a restart. */
public interface CheckpointStore {

    /** The sequence to resume {@code consumer} from on {@code topic}, if one was stored. */
    OptionalLong load(String consumer, String topic);

    /** Notes that {@code consumer} is about to handle {@code sequence} on {@code topic}; may be stored later. */
    void remember(String consumer, String topic, long sequence);
}
