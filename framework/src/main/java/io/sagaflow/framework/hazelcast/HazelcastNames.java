package io.sagaflow.framework.hazelcast;

/** Names of the framework's Hazelcast structures, in one place. */
public final class HazelcastNames {

    /** Leases on the outbox buckets, in each per-service cluster. Bounded: one entry per bucket. */
    public static final String OUTBOX_LEASES = "sagaflow.leases.outbox";

    /**
     * Prefix of the leases on a consumer's topics, in each per-service cluster: one map per publisher the consumer
     * reads, {@code sagaflow.leases.consumer.<name>.<count>-<hash of that publisher's topics>}. Bounded: one entry per
     * topic (ADR 0080, 0081).
     */
    public static final String CONSUMER_LEASES_PREFIX = "sagaflow.leases.consumer.";

    /** Executor of each per-service cluster that carries wake-ups between the replicas' outbox relays. */
    public static final String OUTBOX_WAKEUPS = "sagaflow.outbox.wakeups";

    /** Prefix of every lease map; such maps never evict (their key space is fixed). */
    public static final String LEASE_MAPS = "sagaflow.leases.*";

    /** Default prefix of the shared topic's shards ({@code sagaflow.events.0} …). */
    public static final String EVENT_TOPIC_PREFIX = "sagaflow.events";

    /**
     * Prefix Hazelcast gives the ringbuffer behind a reliable topic. Only its name carries the prefix: its settings
     * are the ringbuffer config named like the topic.
     */
    public static final String RELIABLE_TOPIC_RINGBUFFER_PREFIX = "_hz_rb_";

    private HazelcastNames() {}
}
