package io.sagaflow.framework.messaging;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ITopic;
import com.hazelcast.topic.Message;
import com.hazelcast.topic.ReliableMessageListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The shared cluster's event topic, split into {@code shards} reliable topics ({@code <prefix>.<n>}). A message goes
 * to shard {@code hash(streamId) mod shards}, so the events of one stream keep their order while the ringbuffers of
 * different shards live on different partitions and members. Reliable topics store each message in a ringbuffer
 * with a backup before {@link #publish} returns, and let a subscriber resume from a stored sequence: see ADR 0005.
 */
public final class ReliableTopicEventBus implements EventPublisher {

    /** Prefix Hazelcast gives the ringbuffer behind a reliable topic. */
    private static final String RINGBUFFER_PREFIX = "_hz_rb_";

    private final HazelcastInstance shared;
    private final String topicPrefix;
    private final int shards;
    private final Duration publishTimeout;

    public ReliableTopicEventBus(HazelcastInstance shared, String topicPrefix, int shards, Duration publishTimeout) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1");
        }
        this.shared = shared;
        this.topicPrefix = topicPrefix;
        this.shards = shards;
        this.publishTimeout = publishTimeout;
    }

    /** The shard of {@code streamId}'s messages. */
    public int shardOf(String streamId) {
        return Math.floorMod(streamId.hashCode(), shards);
    }

    public int shards() {
        return shards;
    }

    /** The topic name of shard {@code shard}. */
    public String topicName(int shard) {
        return topicPrefix + "." + shard;
    }

    @Override
    public void publish(List<EventMessage> messages) {
        Map<Integer, List<EventMessage>> byShard = new TreeMap<>();
        for (EventMessage message : messages) {
            byShard.computeIfAbsent(shardOf(message.streamId()), shard -> new ArrayList<>())
                    .add(message);
        }
        List<CompletableFuture<Void>> pending = new ArrayList<>(byShard.size());
        byShard.forEach((shard, batch) -> {
            ITopic<EventMessage> topic = shared.getReliableTopic(topicName(shard));
            pending.add(topic.publishAllAsync(batch).toCompletableFuture());
        });
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                    .get(publishTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not publish " + messages.size() + " messages", e);
        }
    }

    /**
     * Subscribes {@code listener} to every shard, resuming each from the sequence {@code checkpoints} has for
     * {@code consumer}, or from the oldest message still held when there is none.
     *
     * @return the subscription, to cancel on shutdown
     */
    public Subscription subscribe(String consumer, CheckpointStore checkpoints, EventMessageListener listener) {
        List<Registration> registrations = new ArrayList<>(shards);
        for (int shard = 0; shard < shards; shard++) {
            String topicName = topicName(shard);
            long head = shared.getRingbuffer(RINGBUFFER_PREFIX + topicName).headSequence();
            long resumeFrom = checkpoints.load(consumer, shard).orElse(head);
            ITopic<EventMessage> topic = shared.getReliableTopic(topicName);
            UUID id = topic.addMessageListener(
                    new ShardListener(consumer, shard, Math.max(resumeFrom, head), checkpoints, listener));
            registrations.add(new Registration(topic, id));
        }
        return () -> registrations.forEach(r -> r.topic().removeMessageListener(r.id()));
    }

    /** Receives the messages of one consumer, one shard at a time, in order; must not throw. */
    @FunctionalInterface
    public interface EventMessageListener {
        void onMessage(EventMessage message);
    }

    /** A running subscription. */
    @FunctionalInterface
    public interface Subscription {
        void cancel();
    }

    private record Registration(ITopic<EventMessage> topic, UUID id) {}

    private static final class ShardListener implements ReliableMessageListener<EventMessage> {

        private final String consumer;
        private final int shard;
        private final long initialSequence;
        private final CheckpointStore checkpoints;
        private final EventMessageListener delegate;

        ShardListener(
                String consumer,
                int shard,
                long initialSequence,
                CheckpointStore checkpoints,
                EventMessageListener delegate) {
            this.consumer = consumer;
            this.shard = shard;
            this.initialSequence = initialSequence;
            this.checkpoints = checkpoints;
            this.delegate = delegate;
        }

        @Override
        public void onMessage(Message<EventMessage> message) {
            delegate.onMessage(message.getMessageObject());
        }

        @Override
        public long retrieveInitialSequence() {
            return initialSequence;
        }

        @Override
        public void storeSequence(long sequence) {
            // Called before the message at `sequence` is handled: resuming from it redelivers at most that one.
            checkpoints.remember(consumer, shard, sequence);
        }

        @Override
        public boolean isLossTolerant() {
            // Messages older than the ringbuffer's TTL may be gone; skipping ahead beats a listener that silently
            // terminates. The TTL is sized above any expected consumer outage (ADR 0005).
            return true;
        }

        @Override
        public boolean isTerminal(Throwable failure) {
            return false;
        }
    }
}
