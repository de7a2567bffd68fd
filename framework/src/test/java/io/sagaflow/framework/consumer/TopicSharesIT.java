package io.sagaflow.framework.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer's topics shared among two replicas on real members (ADR 0080): each topic is listened to by one replica,
 * every message reaches a replica, and a replica that stops or crashes has its topics taken over at once, not when
 * their leases expire, without a message lost. Each publisher's topics are shared on their own, so a replica holds
 * half of each publisher's, and replicas that disagree on the list of topics do not share one table of them (ADR 0081).
 */
class TopicSharesIT {

    private static final String CONSUMER = "test.consumer";
    private static final String PUBLISHER = "test-publisher";
    /** A second publisher whose events the consumer reads too, as payment reads order's and inventory's. */
    private static final String OTHER_PUBLISHER = "test-other";
    /** Far longer than any wait below: a takeover within them comes from the hand-over or the member's leave. */
    private static final Duration LEASE_TTL = Duration.ofMinutes(1);

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final InMemoryCheckpoints checkpoints = new InMemoryCheckpoints();
    private ServiceClusterSpec service;
    private ReliableTopicEventBus bus;
    private List<String> topics;
    private final List<Replica> replicas = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startClusters() {
        service = clusters.newServiceCluster();
        SagaflowHazelcastProperties.Shared shared = clusters.newSharedCluster();
        HazelcastInstance sharedMember = clusters.startSharedMember(shared);
        bus = new ReliableTopicEventBus(
                sharedMember, shared.getTopic().getPrefix(), shared.getTopic().getShards(), Duration.ofSeconds(10));
        topics = bus.topicNames(Set.of(PUBLISHER));
    }

    @AfterEach
    void stop() {
        replicas.forEach(Replica::stop);
        clusters.close();
    }

    @Test
    void eachTopicIsListenedToByOneReplica_andEveryMessageReachesOneOfThem() {
        Replica first = new Replica(clusters.startMember(service));
        first.start();
        assertThat(first.topicsHeld())
                .as("alone, a replica listens to every topic")
                .isEqualTo(topics.size());

        Replica second = new Replica(clusters.startMember(service));
        second.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> first.topicsHeld() == topics.size() / 2 && second.topicsHeld() == topics.size() / 2);

        List<String> sent = publish(200);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> first.received.size() + second.received.size() == sent.size());
        assertThat(first.received).as("the first replica's part").isNotEmpty().doesNotHaveDuplicates();
        assertThat(second.received).as("the second replica's part").isNotEmpty().doesNotHaveDuplicates();
        Set<String> both = new HashSet<>(first.received);
        both.retainAll(second.received);
        assertThat(both).as("received by both").isEmpty();
        assertThat(first.topicsSeen()).doesNotContainAnyElementsOf(second.topicsSeen());
    }

    @Test
    void aReplicaThatStopsHandsItsTopicsOverAtOnce_andNoMessageIsLost() throws Exception {
        Replica first = new Replica(clusters.startMember(service));
        first.start();
        Replica second = new Replica(clusters.startMember(service));
        second.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> second.topicsHeld() == topics.size() / 2);

        List<String> sent = new CopyOnWriteArrayList<>();
        Thread publisher = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 40; i++) {
                sent.addAll(publish(10));
                sleep(Duration.ofMillis(50));
            }
        });
        sleep(Duration.ofMillis(700));
        second.stop();
        await().atMost(Duration.ofSeconds(5)).until(() -> first.topicsHeld() == topics.size());
        publisher.join();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> receivedByEither(first, second).containsAll(sent));
    }

    @Test
    void aCrashedReplicasTopicsAreTakenOverWhenItsMemberLeaves_andNoMessageIsLost() {
        Replica first = new Replica(clusters.startMember(service));
        first.start();
        Replica second = new Replica(clusters.startMember(service));
        second.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> second.topicsHeld() == topics.size() / 2);
        List<String> before = publish(50);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> receivedByEither(first, second).containsAll(before));

        // The crashed replica's listeners go with it; its member leaves without handing anything over.
        second.crash();
        clusters.kill(second.member);
        List<String> after = publish(100);

        await().atMost(Duration.ofSeconds(10)).until(() -> first.topicsHeld() == topics.size());
        await().atMost(Duration.ofSeconds(10)).until(() -> first.received.containsAll(after));
    }

    @Test
    void aReplicasShareHoldsHalfTheTopicsOfEachPublisher_evenWhenBothStartTogether() throws Exception {
        // The publishers' event rates differ: a share of whole publishers, or of more shards of one publisher than of
        // the other, would split the work by their rates.
        topics = bus.topicNames(Set.of(PUBLISHER, OTHER_PUBLISHER));
        Replica first = new Replica(clusters.startMember(service));
        Replica second = new Replica(clusters.startMember(service));
        Thread starting = Thread.ofPlatform().start(first::start);
        second.start();
        starting.join();
        // Claims that raced leave topics free until a replica next rebalances: at the latest a third of the TTL.
        await().atMost(LEASE_TTL.dividedBy(2))
                .until(() -> first.topicsHeld() == topics.size() / 2 && second.topicsHeld() == topics.size() / 2);

        List<String> sent = new ArrayList<>(publish(PUBLISHER, 200));
        sent.addAll(publish(OTHER_PUBLISHER, 200));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> receivedByEither(first, second).containsAll(sent));

        int halfTheShards = bus.shards() / 2;
        for (Replica replica : List.of(first, second)) {
            for (String publisher : List.of(PUBLISHER, OTHER_PUBLISHER)) {
                assertThat(replica.topicsSeen().stream()
                                .filter(topic -> topicsOf(publisher).contains(topic)))
                        .as("topics of %s heard by one replica", publisher)
                        .hasSize(halfTheShards);
            }
        }
    }

    @Test
    void replicasThatDisagreeOnTheTopicsShareThemInMapsOfTheirOwn() {
        // While a change of the shards rolls out, a slot of one list is another topic in the other.
        List<String> fewerShards = topics.subList(0, topics.size() / 2);
        assertThat(TopicShares.leaseMap(CONSUMER, topics))
                .isEqualTo(TopicShares.leaseMap(CONSUMER, List.copyOf(topics)))
                .isNotEqualTo(TopicShares.leaseMap(CONSUMER, fewerShards))
                .isNotEqualTo(TopicShares.leaseMap("other.consumer", topics));

        Replica before = new Replica(clusters.startMember(service));
        before.start();
        Replica after = new Replica(clusters.startMember(service), fewerShards);
        after.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> before.topicsHeld() == topics.size() && after.topicsHeld() == fewerShards.size());
    }

    @Test
    void theBusNamesEachTopicsPublisher() {
        assertThat(bus.publisherOf(bus.topicName("order.payment", 7))).isEqualTo("order.payment");
        assertThat(bus.publisherOf(bus.topicName(PUBLISHER, 0))).isEqualTo(PUBLISHER);
        assertThatThrownBy(() -> bus.publisherOf("elsewhere.order.1")).isInstanceOf(IllegalArgumentException.class);
    }

    private Set<String> topicsOf(String publisher) {
        Set<String> names = new HashSet<>();
        for (int shard = 0; shard < bus.shards(); shard++) {
            names.add(bus.topicName(publisher, shard));
        }
        return names;
    }

    private Set<String> receivedByEither(Replica first, Replica second) {
        Set<String> all = new HashSet<>(first.received);
        all.addAll(second.received);
        return all;
    }

    /** Publishes {@code count} messages, each on a stream of its own; returns their ids. */
    private List<String> publish(int count) {
        return publish(PUBLISHER, count);
    }

    /** Publishes {@code count} messages of {@code publisher}, each on a stream of its own; returns their ids. */
    private List<String> publish(String publisher, int count) {
        List<EventMessage> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String streamId = "stream-" + UUID.randomUUID();
            messages.add(new EventMessage(
                    UUID.randomUUID().toString(),
                    publisher,
                    streamId,
                    1,
                    "Tested",
                    1,
                    0,
                    "corr",
                    null,
                    null,
                    null,
                    "{}"));
        }
        bus.publish(messages);
        return messages.stream().map(EventMessage::eventId).toList();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One replica of the consuming service: its member, its share of the topics and what reached it. */
    private final class Replica {

        final HazelcastInstance member;
        final List<String> topics;
        final MeterRegistry meters = new SimpleMeterRegistry();
        final List<String> received = new CopyOnWriteArrayList<>();
        final Map<String, Boolean> topicsSeen = new ConcurrentHashMap<>();
        final AtomicBoolean crashed = new AtomicBoolean();
        Subscription subscription;

        Replica(HazelcastInstance member) {
            this(member, TopicSharesIT.this.topics);
        }

        Replica(HazelcastInstance member, List<String> topics) {
            this.member = member;
            this.topics = topics;
            replicas.add(this);
        }

        void start() {
            subscription = new TopicShares(member, bus::publisherOf, LEASE_TTL, Clock.systemUTC(), meters)
                    .subscribe(CONSUMER, topics, topic -> bus.subscribeTopic(CONSUMER, topic, checkpoints, this::on));
        }

        void on(EventMessage message, String topic, Checkpoint after) {
            if (crashed.get()) {
                return;
            }
            // As the consumers do: past a message once it is handled.
            received.add(message.eventId());
            topicsSeen.put(topic, true);
            checkpoints.remember(CONSUMER, topic, after);
        }

        int topicsHeld() {
            var gauge = meters.find("sagaflow.consumer.topics")
                    .tag("consumer", CONSUMER)
                    .gauge();
            return gauge == null ? 0 : (int) gauge.value();
        }

        Set<String> topicsSeen() {
            return topicsSeen.keySet();
        }

        void stop() {
            if (subscription != null) {
                subscription.cancel();
            }
        }

        void crash() {
            crashed.set(true);
        }
    }
}
