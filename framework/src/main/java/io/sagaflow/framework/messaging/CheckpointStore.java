package io.sagaflow.framework.messaging;

import java.util.OptionalLong;

/** Where each consumer resumes on each shard of the shared topic after a restart. */
public interface CheckpointStore {

    /** The sequence to resume {@code consumer} from on {@code shard}, if one was stored. */
    OptionalLong load(String consumer, int shard);

    /** Notes that {@code consumer} is about to handle {@code sequence} on {@code shard}; may be stored later. */
    void remember(String consumer, int shard, long sequence);
}
