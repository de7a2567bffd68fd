package io.sagaflow.framework.consumer;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shares each consumer's topics among the running replicas of its service (ADR 0080), as the relays share the outbox
 * buckets (ADR 0003, 0074): the topics of each publisher a consumer reads are the slots of a {@link LeaseTable} of
 * their own on the service's own cluster (ADR 0081), and a replica listens only to the topics whose lease it holds. A
 * replica that starts takes its fair share of each publisher's topics, one that stops hands its topics over at once,
 * and the topics of one that crashed are taken over when its member leaves the cluster. A topic that changes hands is
 * resumed from its checkpoint by the new holder; what the old holder handled past that checkpoint comes again and is
 * deduplicated as any redelivery is (ADR 0004), so sharing never loses a message and at worst repeats a few.
 */
public final class TopicShares implements TopicAssignment {

    private static final Logger log = LoggerFactory.getLogger(TopicShares.class);

    /** How long to wait before trying again after a rebalance failed. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final HazelcastInstance member;
    private final Function<String, String> publisherOf;
    private final Duration leaseTtl;
    private final Clock clock;
    private final MeterRegistry meters;

    /**
     * @param member this replica's member of its service's cluster
     * @param publisherOf the publisher whose events a topic carries: the topics of each publisher are shared on their
     *     own, so that every replica holds a fair share of each publisher's, whose event rates differ
     * @param leaseTtl how long a topic's lease lasts without renewal: the longest a crashed replica's topics could wait
     *     if its member were still thought to be in the cluster
     */
    public TopicShares(
            HazelcastInstance member,
            Function<String, String> publisherOf,
            Duration leaseTtl,
            Clock clock,
            MeterRegistry meters) {
        this.member = member;
        this.publisherOf = publisherOf;
        this.leaseTtl = leaseTtl;
        this.clock = clock;
        this.meters = meters;
    }

    /**
     * The lease map of {@code consumer}'s {@code topics} (of one publisher): named by the list too, since a slot is an
     * index into it. Replicas that disagree on the list (while a change of the shards rolls out) then share their own
     * lists in maps of their own, each listening to all its topics among them, so a topic is at worst heard twice
     * (deduplicated, ADR 0004) and never left unheard for a replica that took its index to mean another topic.
     */
    static String leaseMap(String consumer, List<String> topics) {
        return HazelcastNames.CONSUMER_LEASES_PREFIX + consumer + "." + topics.size() + "-"
                + Integer.toHexString(String.join(",", topics).hashCode());
    }

    @Override
    public Subscription subscribe(String consumer, List<String> topics, Function<String, Subscription> subscribeTopic) {
        Map<String, List<String>> byPublisher = new TreeMap<>();
        for (String topic : topics) {
            byPublisher
                    .computeIfAbsent(publisherOf.apply(topic), publisher -> new ArrayList<>())
                    .add(topic);
        }
        List<Group> groups = byPublisher.values().stream()
                .map(group -> new Group(
                        List.copyOf(group),
                        new LeaseTable(member, leaseMap(consumer, group), group.size(), leaseTtl, clock)))
                .toList();
        Share share = new Share(consumer, topics.size(), groups, subscribeTopic);
        share.start();
        return share::stop;
    }

    /** One publisher's topics of a consumer and the lease table that shares them. */
    private record Group(List<String> topics, LeaseTable leases) {}

    /** One consumer's share of its topics on this replica, kept by a thread of its own. */
    private final class Share {

        private final String consumer;
        private final int topicCount;
        private final List<Group> groups;
        private final Function<String, Subscription> subscribeTopic;
        private final Map<String, Subscription> listening = new TreeMap<>();
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicBoolean changed = new AtomicBoolean();
        private final Semaphore wake = new Semaphore(0);
        private final List<Runnable> stopShareChanges = new ArrayList<>();
        private Gauge gauge;
        private Thread thread;

        Share(String consumer, int topicCount, List<Group> groups, Function<String, Subscription> subscribeTopic) {
            this.consumer = consumer;
            this.topicCount = topicCount;
            this.groups = groups;
            this.subscribeTopic = subscribeTopic;
        }

        synchronized void start() {
            running.set(true);
            gauge = Gauge.builder("sagaflow.consumer.topics", held, AtomicInteger::get)
                    .description("Topics of this consumer that this replica listens to (its share, ADR 0080)")
                    .tag("consumer", consumer)
                    .register(meters);
            // Also when a member leaves: a crashed replica's leases are free then, and taken over at once.
            groups.forEach(group -> stopShareChanges.add(group.leases().onChange(this::changed)));
            // The first share is taken before start returns, so a started consumer listens at once.
            rebalance();
            thread = Thread.ofPlatform().name("topics-" + consumer).daemon().start(this::run);
        }

        void stop() {
            if (!running.getAndSet(false)) {
                return;
            }
            wake.release();
            try {
                thread.join(leaseTtl.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                listening.values().forEach(Subscription::cancel);
                listening.clear();
                held.set(0);
            }
            meters.remove(gauge);
            try {
                if (member.getLifecycleService().isRunning()) {
                    stopShareChanges.forEach(Runnable::run);
                    // Handing the topics back now lets the other replicas take them over without waiting for expiry.
                    groups.forEach(group -> group.leases().releaseAll());
                }
            } catch (RuntimeException e) {
                log.warn("consumer {} could not hand its topics back; they move when their leases expire", consumer, e);
            }
        }

        private void changed() {
            changed.set(true);
            wake.release();
        }

        private void run() {
            while (running.get()) {
                try {
                    Duration untilRenewal = untilRenewal();
                    if (!changed.get() && !untilRenewal.isZero()) {
                        wake.tryAcquire(untilRenewal.toMillis(), TimeUnit.MILLISECONDS);
                    }
                    wake.drainPermits();
                    if (running.get()
                            && (changed.getAndSet(false) || untilRenewal().isZero())) {
                        rebalance();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** How long until the first of the consumer's tables is due for renewal; zero if one is due now. */
        private Duration untilRenewal() {
            return groups.stream()
                    .map(group -> group.leases().untilRenewal())
                    .min(Duration::compareTo)
                    .orElseThrow();
        }

        /**
         * Takes this replica's fair share of each publisher's topics and listens to exactly those; on failure, tries
         * again soon.
         */
        private synchronized void rebalance() {
            if (!running.get()) {
                return;
            }
            Set<String> mine = new HashSet<>();
            try {
                for (Group group : groups) {
                    group.leases()
                            .rebalance()
                            .forEach(slot -> mine.add(group.topics().get(slot)));
                }
            } catch (RuntimeException e) {
                // The topics listened to stay: another replica that takes one over meanwhile only repeats messages.
                log.warn("consumer {} could not renew its share of the topics; trying again", consumer, e);
                sleepQuietly();
                changed.set(true);
                return;
            }
            listening.entrySet().removeIf(entry -> {
                if (mine.contains(entry.getKey())) {
                    return false;
                }
                entry.getValue().cancel();
                return true;
            });
            for (String topic : mine) {
                if (!listening.containsKey(topic)) {
                    listening.put(topic, subscribeTopic.apply(topic));
                }
            }
            if (held.getAndSet(listening.size()) != listening.size()) {
                log.info("consumer {} listens to {} of its {} topics", consumer, listening.size(), topicCount);
            }
        }

        private void sleepQuietly() {
            try {
                Thread.sleep(RETRY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
