package io.sagaflow.framework.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.ringbuffer.Ringbuffer;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each publisher's messages travel on topics of their own, on a real shared cluster member (ADR 0019). */
class ReliableTopicEventBusIT {

    private static final int SHARDS = 4;

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private HazelcastInstance shared;
    private ReliableTopicEventBus bus;

    @BeforeEach
    void startSharedMember() {
        shared = clusters.startSharedMember(clusters.newSharedCluster());
        bus = new ReliableTopicEventBus(shared, HazelcastNames.EVENT_TOPIC_PREFIX, SHARDS, Duration.ofSeconds(30));
    }

    @AfterEach
    void stop() {
        clusters.close();
    }

    @Test
    void aSubscriberReadsOnlyThePublishersItSubscribedTo_eachStreamOnOneShardOfItsPublisher() {
        Queue<EventMessage> ofOrder = new ConcurrentLinkedQueue<>();
        Queue<EventMessage> ofBoth = new ConcurrentLinkedQueue<>();
        bus.subscribe("order-reader", Set.of("order"), new InMemoryCheckpoints(), ofOrder::add);
        bus.subscribe("both-reader", Set.of("order", "payment"), new InMemoryCheckpoints(), ofBoth::add);

        List<EventMessage> orders = messages("order", 40);
        List<EventMessage> payments = messages("payment", 30);
        List<EventMessage> accounts = messages("account", 20);
        bus.publish(interleave(orders, payments, accounts));

        await().atMost(Duration.ofSeconds(20)).until(() -> ofOrder.size() == 40 && ofBoth.size() == 70);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(ofOrder).containsExactlyInAnyOrderElementsOf(orders);
        assertThat(ofBoth).hasSize(70).containsAll(orders).containsAll(payments);
        for (EventMessage message : accounts) {
            String topic = bus.topicName("account", bus.shardOf(message.streamId()));
            assertThat(ringbuffer(topic).size()).as(topic).isPositive();
        }
        assertThat(ringbuffer(bus.topicName("order", 0)).size()
                        + ringbuffer(bus.topicName("order", 1)).size()
                        + ringbuffer(bus.topicName("order", 2)).size()
                        + ringbuffer(bus.topicName("order", 3)).size())
                .as("each order message stored once, on its stream's shard of the order topics")
                .isEqualTo(40);
    }

    @Test
    void aResubscribedConsumerResumesEveryTopicFromItsOwnCheckpoint() {
        InMemoryCheckpoints checkpoints = new InMemoryCheckpoints();
        Queue<EventMessage> first = new ConcurrentLinkedQueue<>();
        Subscription subscription = bus.subscribe("resumer", Set.of("order", "payment"), checkpoints, first::add);
        List<EventMessage> before = interleave(messages("order", 20), messages("payment", 20), List.of());
        bus.publish(before);
        await().atMost(Duration.ofSeconds(20)).until(() -> first.size() == before.size());
        subscription.cancel();

        List<EventMessage> after = interleave(messages("order", 20), messages("payment", 20), List.of());
        bus.publish(after);
        Queue<EventMessage> second = new ConcurrentLinkedQueue<>();
        bus.subscribe("resumer", Set.of("order", "payment"), checkpoints, second::add);

        await().atMost(Duration.ofSeconds(20)).until(() -> second.containsAll(after));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        // Each checkpoint is remembered once its message was handled, and the ringbuffers confirm every one of them.
        assertThat(second).as("nothing from before the restart again").containsExactlyInAnyOrderElementsOf(after);
    }

    /**
     * A subscriber on a client of the shared cluster keeps running while the whole cluster restarts under it (the
     * cluster's own process or StatefulSet restarted): its client connects to the new cluster, whose ringbuffers count
     * from 0 again. It subscribes again then, so that the new ringbuffers are read from their head.
     */
    @Test
    void aClientsSubscriberReadsARestartedClusterFromItsHead() {
        SagaflowHazelcastProperties.Shared settings = clusters.newSharedCluster();
        HazelcastInstance before = clusters.startSharedMember(settings);
        HazelcastInstance client = clientOf(settings);
        try {
            ReliableTopicEventBus clientBus =
                    new ReliableTopicEventBus(client, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30));
            Queue<EventMessage> received = new ConcurrentLinkedQueue<>();
            clientBus.subscribe("reader", Set.of("order"), new InMemoryCheckpoints(), received::add);
            List<EventMessage> first = messages("order", 5);
            new ReliableTopicEventBus(before, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30))
                    .publish(first);
            await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == first.size());

            clusters.kill(before);
            HazelcastInstance after = clusters.startSharedMember(settings);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> client.getCluster().getMembers().stream()
                            .anyMatch(member -> member.getUuid()
                                    .equals(after.getCluster().getLocalMember().getUuid())));
            await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
            List<EventMessage> second = messages("order", 2);
            new ReliableTopicEventBus(after, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30))
                    .publish(second);

            await().atMost(Duration.ofSeconds(20)).until(() -> received.containsAll(second));
        } finally {
            client.getLifecycleService().terminate();
        }
    }

    @Test
    void aCheckpointTheRingbufferDoesNotConfirm_isReadFromTheTopicsHead() {
        ReliableTopicEventBus oneShard =
                new ReliableTopicEventBus(shared, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30));
        String topic = oneShard.topicName("order", 0);
        List<EventMessage> sent = messages("order", 5);
        oneShard.publish(sent);
        InMemoryCheckpoints checkpoints = new InMemoryCheckpoints();
        // Within the ringbuffer's sequences, but taken on an earlier one: its message 2 was published at another time.
        checkpoints.remember("reader", topic, new Checkpoint(3, 1_700_000_000_000L));
        checkpoints.remember("legacy", topic, new Checkpoint(3, Checkpoint.UNKNOWN));
        Queue<EventMessage> reader = new ConcurrentLinkedQueue<>();
        Queue<EventMessage> legacy = new ConcurrentLinkedQueue<>();

        oneShard.subscribe("reader", Set.of("order"), checkpoints, reader::add);
        oneShard.subscribe("legacy", Set.of("order"), checkpoints, legacy::add);

        await().atMost(Duration.ofSeconds(20)).until(() -> reader.size() == 5 && legacy.size() == 5);
        assertThat(reader).containsExactlyElementsOf(sent);
        assertThat(legacy).containsExactlyElementsOf(sent);
        assertThat(checkpoints.load("reader", topic))
                .get()
                .extracting(Checkpoint::sequence)
                .isEqualTo(5L);
    }

    /**
     * A checkpoint taken on a ringbuffer the shared cluster no longer holds (it restarted, or lost the topic's
     * partition) is past the new ringbuffer's end. Resuming from it, the subscriber's first read waits on the topic's
     * owner for that sequence; if the owner dies before the topic's first message, the read goes again to the member
     * that takes the partition over, whose copy has no ringbuffer yet, and when messages come Hazelcast clamps the
     * sequence to just past them: they were never delivered (found on 2026-11-30, a shared member killed and
     * restarted before a seed). The subscriber must start such a topic from its head.
     */
    @Test
    void aCheckpointPastTheTopicsEnd_isReadFromItsHead_evenWhenTheTopicsOwnerDiesBeforeItsFirstMessage() {
        SagaflowHazelcastProperties.Shared settings = clusters.newSharedCluster();
        HazelcastInstance first = clusters.startSharedMember(settings);
        HazelcastInstance second = clusters.startSharedMember(settings);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> first.getCluster().getMembers().size() == 2);
        ReliableTopicEventBus probe =
                new ReliableTopicEventBus(first, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30));
        String topic = probe.topicName("order", 0);
        UUID owner = first.getPartitionService()
                .getPartition(HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + topic)
                .getOwner()
                .getUuid();
        HazelcastInstance doomed = first.getCluster().getLocalMember().getUuid().equals(owner) ? first : second;
        HazelcastInstance survivor = doomed == first ? second : first;
        ReliableTopicEventBus survivors =
                new ReliableTopicEventBus(survivor, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30));
        InMemoryCheckpoints checkpoints = new InMemoryCheckpoints();
        // Taken on an earlier ringbuffer of the topic, of a shared cluster since restarted.
        checkpoints.remember("reader", topic, new Checkpoint(90, 1_700_000_000_000L));
        Queue<EventMessage> received = new ConcurrentLinkedQueue<>();
        survivors.subscribe("reader", Set.of("order"), checkpoints, received::add);
        // The reader's first read is now waiting on the owner for the topic's next message.
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);

        clusters.kill(doomed);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> survivor.getCluster().getMembers().size() == 1);
        List<EventMessage> sent = messages("order", 3);
        survivors.publish(sent);

        await().atMost(Duration.ofSeconds(20)).until(() -> received.size() >= sent.size());
        assertThat(received).containsExactlyElementsOf(sent);
    }

    @Test
    void theTopicSettingsReachTheRingbuffers_aMessageIsDroppedOnceItsTimeToLiveHasPassed() {
        SagaflowHazelcastProperties.Shared settings = clusters.newSharedCluster();
        settings.getTopic().setCapacity(64);
        settings.getTopic().setTtl(Duration.ofSeconds(1));
        HazelcastInstance member = clusters.startSharedMember(settings);
        ReliableTopicEventBus shortLived =
                new ReliableTopicEventBus(member, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30));
        Ringbuffer<Object> ringbuffer = member.getRingbuffer(
                HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + shortLived.topicName("order", 0));

        shortLived.publish(messages("order", 3));
        assertThat(ringbuffer.capacity()).isEqualTo(64);
        assertThat(ringbuffer.size()).isEqualTo(3);

        // Expired messages leave on the ringbuffer's next operation: one more publish, after the time-to-live.
        await().pollDelay(Duration.ofMillis(1_100))
                .atMost(Duration.ofSeconds(10))
                .until(() -> {
                    shortLived.publish(messages("order", 1));
                    return ringbuffer.headSequence() >= 3;
                });
        assertThat(ringbuffer.size())
                .as("only messages younger than the time-to-live")
                .isLessThan(3);
    }

    @Test
    void aSubscriptionNeedsAPublisher() {
        assertThatThrownBy(() -> bus.subscribe("nobody", Set.of(), new InMemoryCheckpoints(), message -> {}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private Ringbuffer<Object> ringbuffer(String topic) {
        return shared.getRingbuffer(HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + topic);
    }

    /**
     * A client's listener stops when the client loses the cluster. Left running, it read the restarted cluster's
     * ringbuffer from its old sequence as soon as the client was back, before the subscription was made again: it
     * skipped the messages below that sequence and remembered a checkpoint the new ringbuffer confirmed, so the
     * subscription made again resumed there and nothing noticed the gap (ADR 0093).
     */
    @Test
    void aClientsListenerStopsWhileTheClientIsAway_soThatARestartedClustersFirstMessagesAreNotSkipped() {
        SagaflowHazelcastProperties.Shared settings = clusters.newSharedCluster();
        HazelcastInstance before = clusters.startSharedMember(settings);
        HazelcastInstance client = clientOf(settings);
        try {
            ReliableTopicEventBus clientBus =
                    new ReliableTopicEventBus(client, HazelcastNames.EVENT_TOPIC_PREFIX, 16, Duration.ofSeconds(30));
            Queue<EventMessage> received = new ConcurrentLinkedQueue<>();
            // The subscriptions are made again one after the other, each with a read of its checkpoint (from the
            // database, in a service) and of its ringbuffer; here the first such read takes 3 s, and the listeners
            // of the other topics have long read the new ringbuffers when it is their turn.
            InMemoryCheckpoints stored = new InMemoryCheckpoints();
            AtomicBoolean slowRead = new AtomicBoolean();
            CheckpointStore checkpoints = new CheckpointStore() {
                @Override
                public Optional<Checkpoint> load(String consumer, String topic) {
                    if (slowRead.getAndSet(false)) {
                        await().pollDelay(Duration.ofSeconds(3)).until(() -> true);
                    }
                    return stored.load(consumer, topic);
                }

                @Override
                public void remember(String consumer, String topic, Checkpoint checkpoint) {
                    stored.remember(consumer, topic, checkpoint);
                }
            };
            clientBus.subscribe("reader", Set.of("order"), checkpoints, received::add);
            List<EventMessage> first = messages("order", 64);
            new ReliableTopicEventBus(before, HazelcastNames.EVENT_TOPIC_PREFIX, 16, Duration.ofSeconds(30))
                    .publish(first);
            await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == first.size());

            slowRead.set(true);
            clusters.kill(before);
            HazelcastInstance after = clusters.startSharedMember(settings);
            // Published before the client is back: more than the listeners had read of the old ringbuffers.
            List<EventMessage> second = messages("order", 256);
            new ReliableTopicEventBus(after, HazelcastNames.EVENT_TOPIC_PREFIX, 16, Duration.ofSeconds(30))
                    .publish(second);

            await().atMost(Duration.ofSeconds(60)).until(() -> received.containsAll(second));
        } finally {
            client.getLifecycleService().terminate();
        }
    }

    /** A client of the shared cluster {@code settings}, which retries a lost connection every half second at most. */
    private static HazelcastInstance clientOf(SagaflowHazelcastProperties.Shared settings) {
        ClientConfig config = HazelcastConfigs.sharedClient(settings, null);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setMaxBackoffMillis(500);
        return HazelcastClient.newHazelcastClient(config);
    }

    private static List<EventMessage> messages(String publisher, int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new EventMessage(
                        UUID.randomUUID().toString(),
                        publisher,
                        publisher + "-stream-" + i,
                        1,
                        publisher + "Happened",
                        1,
                        0,
                        "flow-" + i,
                        null,
                        null,
                        null,
                        "{}"))
                .toList();
    }

    @SafeVarargs
    private static List<EventMessage> interleave(List<EventMessage>... lists) {
        int longest = List.of(lists).stream().mapToInt(Collection::size).max().orElse(0);
        return IntStream.range(0, longest)
                .boxed()
                .flatMap(i ->
                        List.of(lists).stream().filter(list -> i < list.size()).map(list -> list.get(i)))
                .toList();
    }
}
