package io.sagaflow.framework.messaging;

import com.hazelcast.cluster.MembershipAdapter;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent.LifecycleState;
import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.ringbuffer.Ringbuffer;
import com.hazelcast.topic.ITopic;
import com.hazelcast.topic.Message;
import com.hazelcast.topic.ReliableMessageListener;
import com.hazelcast.topic.impl.reliable.ReliableTopicMessage;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared cluster's event topics: each publisher's events travel on {@code shards} reliable topics of their own
 * ({@code <prefix>.<publisher>.<n>}), so a consumer reads only the publishers it consumes (ADR 0019). A message goes
 * to its publisher's shard {@code hash(streamId) mod shards}, so the events of one stream keep their order while the
 * ringbuffers of different shards live on different partitions and members. Reliable topics store each message in a
 * ringbuffer with a backup before {@link #publish} returns, and let a subscriber resume from a stored sequence (ADR
 * 0005), which it does only where the ringbuffer confirms its {@link Checkpoint} (ADR 0089).
 *
 * <p>A ringbuffer holds a message for the topic's time-to-live, in the shared cluster's memory. A subscriber that finds
 * messages gone that it had not read (it was away or behind for longer, or the cluster lost the ringbuffer) asks their
 * publisher to resend them through {@link #replays()}: the publisher puts the events back into its outbox (ADR 0093).
 */
public final class ReliableTopicEventBus implements EventPublisher {

    private static final Logger log = LoggerFactory.getLogger(ReliableTopicEventBus.class);

    /** The name of the map of replay requests is the topic prefix and this (ADR 0093). */
    public static final String REPLAYS_SUFFIX = "-replays";

    /** The shared cluster's time-to-live of a topic message unless it is configured otherwise. */
    public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofSeconds(30);

    private final HazelcastInstance shared;
    private final String topicPrefix;
    private final int shards;
    private final Duration publishTimeout;
    private final long timeToLiveMillis;
    private final Replays replays;
    private final Set<TopicSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    /** Pauses and resubscriptions, one at a time and in the order the client's lifecycle asked for them. */
    private final ExecutorService reconnections;

    /** A bus on a shared cluster whose topics keep a message for {@link #DEFAULT_TIME_TO_LIVE}. */
    public ReliableTopicEventBus(HazelcastInstance shared, String topicPrefix, int shards, Duration publishTimeout) {
        this(shared, topicPrefix, shards, publishTimeout, DEFAULT_TIME_TO_LIVE);
    }

    /**
     * @param timeToLive how long the shared cluster's topics keep a message: a listener that handles a message later
     *     than half of it may fall far enough behind to miss what follows, and checks for that (ADR 0098)
     */
    public ReliableTopicEventBus(
            HazelcastInstance shared, String topicPrefix, int shards, Duration publishTimeout, Duration timeToLive) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1");
        }
        if (!timeToLive.isPositive()) {
            throw new IllegalArgumentException("timeToLive must be positive");
        }
        this.shared = shared;
        this.topicPrefix = topicPrefix;
        this.shards = shards;
        this.publishTimeout = publishTimeout;
        this.timeToLiveMillis = timeToLive.toMillis();
        this.replays = new Replays(shared, topicPrefix + REPLAYS_SUFFIX);
        this.reconnections = Executors.newSingleThreadExecutor(
                Thread.ofVirtual().name("resubscribe-" + topicPrefix).factory());
        // A client that connects again may have connected to a new cluster (the shared cluster restarted; Hazelcast
        // tells a listener only when it switches to a failover cluster): its listeners' sequences would point into
        // ringbuffers that are gone. Every topic is subscribed again, through its checkpoint, which resumes where it
        // was if the ringbuffer is the same. Off the client's own thread, which must not wait for the reads it makes.
        //
        // Until then a client's listeners stop at once when it loses its connection: one left running would read the
        // new cluster's ringbuffers from its old sequence as soon as the client is back, before its subscription is
        // made again, skipping the messages below that sequence and remembering a checkpoint the new ringbuffer then
        // confirms, so that nothing would find the gap (ADR 0093).
        shared.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleState.CLIENT_DISCONNECTED) {
                reconnections.execute(() -> subscriptions.forEach(TopicSubscription::pause));
            } else if (event.getState() == LifecycleState.CLIENT_CONNECTED && !subscriptions.isEmpty()) {
                reconnections.execute(this::resubscribeAll);
            }
        });
        // A member that leaves takes the primaries of its partitions with it; a ringbuffer without a backup elsewhere
        // (backup count 0, or its backups' members gone too) starts again empty on the partition's new owner. A
        // listener past its end learns of the loss only from the sequence of the next message, which on a quiet topic
        // may never come: each topic whose ringbuffer now ends before its listener's position is listened to again
        // from the new ringbuffer's head, and its publisher asked for what was lost (ADR 0096).
        shared.getCluster().addMembershipListener(new MembershipAdapter() {
            @Override
            public void memberRemoved(MembershipEvent event) {
                if (!subscriptions.isEmpty()) {
                    reconnections.execute(() -> resubscribeLost(event));
                }
            }
        });
    }

    /** The consumers' requests to resend what they may have missed (ADR 0093). */
    public Replays replays() {
        return replays;
    }

    /** The shard of {@code streamId}'s messages. */
    public int shardOf(String streamId) {
        return Math.floorMod(streamId.hashCode(), shards);
    }

    public int shards() {
        return shards;
    }

    /** The topic name of {@code publisher}'s shard {@code shard}. */
    public String topicName(String publisher, int shard) {
        return topicPrefix + "." + publisher + "." + shard;
    }

    /** Publishes each message on the topic of its {@link EventMessage#source() publisher} and stream's shard. */
    @Override
    public void publish(List<EventMessage> messages) {
        Map<String, List<EventMessage>> byTopic = new LinkedHashMap<>();
        for (EventMessage message : messages) {
            byTopic.computeIfAbsent(
                            topicName(message.source(), shardOf(message.streamId())), topic -> new ArrayList<>())
                    .add(message);
        }
        List<CompletableFuture<Void>> pending = new ArrayList<>(byTopic.size());
        byTopic.forEach((topicName, batch) -> {
            ITopic<EventMessage> topic = shared.getReliableTopic(topicName);
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
     * Subscribes {@code listener} to every shard of each of {@code publishers}, resuming each topic where
     * {@code checkpoints} has {@code consumer}, or from the oldest message still held when there is none (see
     * {@link #subscribeTopic}). Each message's checkpoint is remembered once the listener returned, so a restart
     * redelivers at most the message being handled.
     *
     * @return the subscription, to cancel on shutdown
     */
    public Subscription subscribe(
            String consumer, Set<String> publishers, CheckpointStore checkpoints, EventMessageListener listener) {
        return subscribe(consumer, publishers, checkpoints, (message, topic, after) -> {
            listener.onMessage(message);
            checkpoints.remember(consumer, topic, after);
        });
    }

    /**
     * As {@link #subscribe(String, Set, CheckpointStore, EventMessageListener)}, but the listener is told each
     * message's topic and the checkpoint past it, and remembers checkpoints itself, e.g. only once the message's
     * effects committed.
     */
    public Subscription subscribe(
            String consumer, Set<String> publishers, CheckpointStore checkpoints, PositionedListener listener) {
        List<Subscription> subscriptions = topicNames(publishers).stream()
                .map(topic -> subscribeTopic(consumer, topic, checkpoints, listener))
                .toList();
        return () -> subscriptions.forEach(Subscription::cancel);
    }

    /**
     * The topics {@code publishers}' events travel on, in a fixed order (publishers by name, then shards): the same
     * list on every replica, so that its indexes can be shared out among them.
     */
    public List<String> topicNames(Set<String> publishers) {
        if (publishers.isEmpty()) {
            throw new IllegalArgumentException("no publisher to subscribe to");
        }
        List<String> names = new ArrayList<>(publishers.size() * shards);
        for (String publisher : new TreeSet<>(publishers)) {
            for (int shard = 0; shard < shards; shard++) {
                names.add(topicName(publisher, shard));
            }
        }
        return List.copyOf(names);
    }

    /**
     * The publisher whose events {@code topicName} (one of {@link #topicName}'s) carries.
     *
     * @throws IllegalArgumentException if it is not a topic of this bus
     */
    public String publisherOf(String topicName) {
        int shard = topicName.lastIndexOf('.');
        if (!topicName.startsWith(topicPrefix + ".") || shard <= topicPrefix.length() + 1) {
            throw new IllegalArgumentException("not a topic of " + topicPrefix + ": " + topicName);
        }
        return topicName.substring(topicPrefix.length() + 1, shard);
    }

    /**
     * Subscribes {@code listener} to one topic, resuming from the checkpoint {@code checkpoints} has for
     * {@code consumer} there if the topic's ringbuffer confirms it, otherwise from the oldest message still held
     * ({@link Checkpoint#resumeOn}, ADR 0089).
     *
     * <p>A checkpoint can name a sequence of another ringbuffer: the shared cluster's ringbuffers live in memory, and
     * one that starts again (the cluster restarted, or lost the topic's partition) counts from 0. Resumed from a
     * sequence past such a ringbuffer's end, a listener would skip messages: Hazelcast moves a read past the end back
     * to the end, and when the read had to go to another member before the topic's first message, that end is only
     * known once the first messages are there, which are then skipped.
     */
    public Subscription subscribeTopic(
            String consumer, String topicName, CheckpointStore checkpoints, PositionedListener listener) {
        TopicSubscription subscription = new TopicSubscription(consumer, topicName, checkpoints, listener);
        subscription.start();
        return subscription;
    }

    private void resubscribeAll() {
        log.info("connected to the shared cluster again: subscribing to {} topics again", subscriptions.size());
        for (TopicSubscription subscription : List.copyOf(subscriptions)) {
            try {
                subscription.start();
            } catch (RuntimeException e) {
                log.error("could not subscribe {} to {} again", subscription.consumer, subscription.topicName, e);
            }
        }
    }

    private void resubscribeLost(MembershipEvent event) {
        for (TopicSubscription subscription : List.copyOf(subscriptions)) {
            try {
                subscription.startAgainIfLost(event);
            } catch (RuntimeException e) {
                log.error(
                        "could not check {}'s listener on {} after {} left",
                        subscription.consumer,
                        subscription.topicName,
                        event.getMember(),
                        e);
            }
        }
    }

    /**
     * The checkpoint of a consumer that has none on {@code topicName} yet, remembered before its listener starts: it
     * reads the ringbuffer from its head, so it needs nothing published before the message there, or before now if the
     * ringbuffer holds none. Without it, a consumer that went away before it handled a message there (a quiet topic, or
     * one whose first messages it never got to) came back to no checkpoint, read from the head, and never learnt what
     * had expired meanwhile (ADR 0097). Null if the head's publish time cannot be read: it just starts from the head.
     */
    private Checkpoint firstCheckpoint(String topicName) {
        Ringbuffer<Object> ringbuffer = ringbufferOf(topicName);
        long head = ringbuffer.headSequence();
        if (head > ringbuffer.tailSequence()) {
            // Hazelcast stamps a message with its publisher's clock; a replay reaches back further than clocks drift.
            return new Checkpoint(head, System.currentTimeMillis());
        }
        long publishTime = publishTimeAt(ringbuffer, head);
        return publishTime == Checkpoint.UNKNOWN ? null : new Checkpoint(head, publishTime - 1);
    }

    /**
     * Where {@code consumer} resumes {@code topicName}: its checkpoint if the ringbuffer confirms it, else the head, and
     * then its publisher is asked for what the consumer may have missed (ADR 0093).
     */
    private long resumeFrom(String consumer, String topicName, Checkpoint checkpoint) {
        Ringbuffer<Object> ringbuffer = ringbufferOf(topicName);
        long head = ringbuffer.headSequence();
        if (checkpoint == null) {
            return head;
        }
        long tail = ringbuffer.tailSequence();
        long resumeFrom = checkpoint.resumeOn(head, tail, sequence -> publishTimeAt(ringbuffer, sequence));
        if (resumeFrom != checkpoint.sequence()) {
            log.info(
                    "consumer {} reads {} from its head, sequence {}: its checkpoint {} is not confirmed by the"
                            + " ringbuffer, which holds {}",
                    consumer,
                    topicName,
                    resumeFrom,
                    checkpoint,
                    tail < head ? "no messages" : "sequences " + head + " to " + tail);
            // Messages between the checkpoint and the head may have gone unread: expired, or in a ringbuffer that is
            // no more. Only their publisher can send them again.
            requestReplay(consumer, topicName, checkpoint.lastPublishTime());
        }
        return resumeFrom;
    }

    /**
     * Asks {@code topicName}'s publisher to resend what it published since {@code sinceMillis}, which {@code consumer}
     * may have missed (ADR 0093). Never throws: the request is worth a try, not a failed subscription.
     */
    private void requestReplay(String consumer, String topicName, long sinceMillis) {
        if (sinceMillis == Checkpoint.UNKNOWN) {
            log.warn(
                    "consumer {} may have missed messages on {}, and cannot ask for them again: it does not know when"
                            + " the last one it handled was published",
                    consumer,
                    topicName);
            return;
        }
        try {
            replays.request(topicName, sinceMillis);
            log.info(
                    "consumer {} asked the publisher of {} to resend what it published since {}",
                    consumer,
                    topicName,
                    Instant.ofEpochMilli(sinceMillis));
        } catch (RuntimeException e) {
            log.error(
                    "consumer {} could not ask for {}'s messages since {} again", consumer, topicName, sinceMillis, e);
        }
    }

    /** The ringbuffer that holds the messages of the reliable topic {@code topicName}. */
    private Ringbuffer<Object> ringbufferOf(String topicName) {
        return shared.getRingbuffer(HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + topicName);
    }

    /** The publish time of the reliable topic message at {@code sequence}, or {@link Checkpoint#UNKNOWN}. */
    private long publishTimeAt(Ringbuffer<Object> ringbuffer, long sequence) {
        try {
            // At least 0 messages: answers at once with what is there, and does not wait for a sequence not yet
            // written.
            ReadResultSet<Object> read = ringbuffer
                    .readManyAsync(sequence, 0, 1, null)
                    .toCompletableFuture()
                    .get(publishTimeout.toMillis(), TimeUnit.MILLISECONDS);
            // A reliable topic's ringbuffer holds ReliableTopicMessage (Hazelcast's own; its publish time is the one
            // its listeners are given as Message#getPublishTime).
            if (read.size() == 1 && read.getSequence(0) == sequence && read.get(0) instanceof ReliableTopicMessage m) {
                return m.getPublishTime();
            }
            return Checkpoint.UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + ringbuffer.getName(), e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // Gone meanwhile (expired, or the ringbuffer lost): the checkpoint cannot be confirmed.
            log.debug("could not read sequence {} of {}", sequence, ringbuffer.getName(), e);
            return Checkpoint.UNKNOWN;
        }
    }

    /** Receives the messages of one consumer, one topic at a time, in order; must not throw. */
    @FunctionalInterface
    public interface EventMessageListener {
        void onMessage(EventMessage message);
    }

    /**
     * Receives the messages of one consumer, one topic at a time, in order, with each message's topic and the
     * checkpoint past it (to {@link CheckpointStore#remember} once it is handled); must not throw.
     */
    @FunctionalInterface
    public interface PositionedListener {
        void onMessage(EventMessage message, String topic, Checkpoint after);
    }

    /** A running subscription. */
    @FunctionalInterface
    public interface Subscription {
        void cancel();
    }

    /** One consumer's listener on one topic; started again, it replaces its listener by one resumed afresh. */
    private final class TopicSubscription implements Subscription {

        private final String consumer;
        private final String topicName;
        private final CheckpointStore checkpoints;
        private final PositionedListener listener;
        private ITopic<EventMessage> topic;
        private TopicListener running;
        private UUID id;
        private boolean cancelled;

        TopicSubscription(String consumer, String topicName, CheckpointStore checkpoints, PositionedListener listener) {
            this.consumer = consumer;
            this.topicName = topicName;
            this.checkpoints = checkpoints;
            this.listener = listener;
        }

        synchronized void start() {
            if (cancelled) {
                return;
            }
            pause();
            Checkpoint checkpoint = checkpoints.load(consumer, topicName).orElse(null);
            if (checkpoint == null) {
                checkpoint = firstCheckpoint(topicName);
                if (checkpoint != null) {
                    checkpoints.remember(consumer, topicName, checkpoint);
                }
            }
            listen(
                    resumeFrom(consumer, topicName, checkpoint),
                    checkpoint == null ? Checkpoint.UNKNOWN : checkpoint.lastPublishTime());
        }

        /**
         * Listens afresh if the topic's ringbuffer ends before the next sequence the running listener expects: it is
         * a new one, the old one lost with {@code event}'s member. The new listener reads the new ringbuffer from its
         * head, and the publisher is asked for what it published since the last message delivered here, which covers
         * every message the lost ringbuffer held past it. Not through the stored checkpoint: it may name no message
         * yet while one was delivered and not yet handled.
         */
        synchronized void startAgainIfLost(MembershipEvent event) {
            if (cancelled || id == null) {
                return;
            }
            long expected = running.expected();
            Ringbuffer<Object> ringbuffer = ringbufferOf(topicName);
            long tail = ringbuffer.tailSequence();
            if (tail + 1 >= expected) {
                return;
            }
            log.warn(
                    "the ringbuffer of {} was lost with {}: it ends at {}, consumer {} expected {} next; listening"
                            + " again from its head",
                    topicName,
                    event.getMember(),
                    tail,
                    consumer,
                    expected);
            long lastPublishTime = running.lastPublishTime;
            pause();
            listen(ringbuffer.headSequence(), lastPublishTime);
            requestReplay(consumer, topicName, lastPublishTime);
        }

        private void listen(long from, long lastPublishTime) {
            topic = shared.getReliableTopic(topicName);
            running = new TopicListener(
                    topicName,
                    from,
                    lastPublishTime,
                    listener,
                    since -> requestReplay(consumer, topicName, since),
                    timeToLiveMillis / 2,
                    this::checkLater);
            id = topic.addMessageListener(running);
            subscriptions.add(this);
        }

        /** Runs {@link #checkBehind} for {@code late} once the topic's time-to-live has passed. */
        private void checkLater(TopicListener late) {
            CompletableFuture.delayedExecutor(timeToLiveMillis, TimeUnit.MILLISECONDS, reconnections)
                    .execute(() -> checkBehind(late));
        }

        /**
         * Asks for what {@code late} can no longer read, if that is so: it handled a message later than half the
         * time-to-live after its publication, a time-to-live ago, and the next message it expects is no longer in the
         * ringbuffer. Hazelcast's reader then goes on from the ringbuffer's head and the listener would learn of the
         * loss from the sequence of the next message there, which on a quiet topic may never come (ADR 0098). Still
         * in a message, or moved on meanwhile, it is looked at again a time-to-live later.
         */
        private synchronized void checkBehind(TopicListener late) {
            if (cancelled || running != late) {
                return; // a listener started afresh, from a checkpoint, or none
            }
            late.checked();
            long expected = late.expected();
            if (late.handling()) {
                late.checkLater();
                return;
            }
            long head = ringbufferOf(topicName).headSequence();
            if (head <= expected) {
                return;
            }
            // Moved on between the two reads: it was reading, and finds a gap itself.
            if (late.handling() || !late.skipTo(expected, head)) {
                late.checkLater();
                return;
            }
            log.warn(
                    "consumer {} fell behind on {}: it expected sequence {} next, the ringbuffer starts at {}",
                    consumer,
                    topicName,
                    expected,
                    head);
            requestReplay(consumer, topicName, late.lastPublishTime);
        }

        /**
         * Stops the listener until {@link #start()}: no more reads, no more messages. Local to this instance, so it
         * works while a client is disconnected.
         */
        synchronized void pause() {
            if (id != null) {
                topic.removeMessageListener(id);
                id = null;
                running = null;
            }
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            subscriptions.remove(this);
            pause();
        }
    }

    private static final class TopicListener implements ReliableMessageListener<EventMessage> {

        private final String topic;
        private final long initialSequence;
        private final PositionedListener delegate;
        private final LongConsumer onLoss;
        private final long lateAfterMillis;
        private final Consumer<TopicListener> onLate;
        // Hazelcast announces each message's sequence just before delivering it, on the same runner; one runner at a
        // time, though not always on the same thread.
        private volatile long sequence;
        private final AtomicLong expected;
        private volatile long lastPublishTime;
        private volatile boolean handling;
        private final AtomicBoolean checkPending = new AtomicBoolean();

        TopicListener(
                String topic,
                long initialSequence,
                long lastPublishTime,
                PositionedListener delegate,
                LongConsumer onLoss,
                long lateAfterMillis,
                Consumer<TopicListener> onLate) {
            this.topic = topic;
            this.initialSequence = initialSequence;
            this.sequence = initialSequence;
            this.expected = new AtomicLong(initialSequence);
            this.lastPublishTime = lastPublishTime;
            this.delegate = delegate;
            this.onLoss = onLoss;
            this.lateAfterMillis = lateAfterMillis;
            this.onLate = onLate;
        }

        @Override
        public void onMessage(Message<EventMessage> message) {
            long publishTime = message.getPublishTime();
            lastPublishTime = publishTime;
            try {
                delegate.onMessage(message.getMessageObject(), topic, new Checkpoint(sequence + 1, publishTime));
            } finally {
                handling = false;
            }
            // This late, the messages behind it may expire before it reads them (ADR 0098).
            if (System.currentTimeMillis() - publishTime > lateAfterMillis) {
                checkLater();
            }
        }

        @Override
        public long retrieveInitialSequence() {
            return initialSequence;
        }

        @Override
        public void storeSequence(long sequence) {
            // Called just before the message at `sequence` is delivered, on the same thread. Another sequence than
            // the next one: the runner skipped messages, because they expired before it read them (it fell more than
            // the time-to-live behind) or because the ringbuffer is a new one (the cluster lost the old one). Their
            // publisher is asked for them again (ADR 0093).
            handling = true;
            long next = expected.get();
            if (sequence != next) {
                log.warn(
                        "the listener of {} lost messages: it expected sequence {}, the ringbuffer went on at {}",
                        topic,
                        next,
                        sequence);
                onLoss.accept(lastPublishTime);
            }
            this.sequence = sequence;
            expected.set(sequence + 1);
        }

        /** The sequence of the next message it expects. */
        long expected() {
            return expected.get();
        }

        /** Whether it is in a message: announced and not yet handled. */
        boolean handling() {
            return handling;
        }

        /** Expects {@code head} next instead of {@code from}, unless it moved on meanwhile; false then. */
        boolean skipTo(long from, long head) {
            return expected.compareAndSet(from, head);
        }

        /** Has its subscription check it a time-to-live from now, unless a check is pending. */
        void checkLater() {
            if (checkPending.compareAndSet(false, true)) {
                onLate.accept(this);
            }
        }

        /** The pending check runs: a late message from now on asks for another. */
        void checked() {
            checkPending.set(false);
        }

        @Override
        public boolean isLossTolerant() {
            // Messages older than the ringbuffer's TTL may be gone: go on, and ask their publisher for them again
            // (storeSequence, checkBehind), rather than terminate the listener.
            return true;
        }

        @Override
        public boolean isTerminal(Throwable failure) {
            return false;
        }
    }
}
