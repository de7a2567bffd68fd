package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer that missed messages of a topic asks their publisher to publish them again, and gets them (ADR 0093): on
 * a real PostgreSQL, with a relay on a real service cluster publishing to a real shared cluster whose topics keep a
 * message for two seconds.
 */
class OutboxReplayIT {

    private static final int BUCKETS = 4;
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final String CONSUMER = "replayed-consumer";
    private static final OutboxSettings SETTINGS = new OutboxSettings(
            BUCKETS,
            100,
            Duration.ofMillis(200),
            Duration.ofSeconds(3),
            Duration.ofHours(1),
            Duration.ofMinutes(1),
            10_000);

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final List<HazelcastInstance> clients = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Queue<EventMessage> received = new ConcurrentLinkedQueue<>();
    private final InMemoryCheckpoints checkpoints = new InMemoryCheckpoints();
    private final OutboxSignal signal = new OutboxSignal();
    private Stores stores;
    private JdbcEventStore store;
    private SagaflowHazelcastProperties.Shared shared;
    private HazelcastInstance sharedMember;
    private OutboxRelay relay;
    private int streams;

    @BeforeEach
    void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        store = stores.eventStore(new OutboxWriter(BUCKETS, signal));
        shared = clusters.newSharedCluster();
    }

    /** Starts the shared cluster, whose topics keep a message for {@code ttl}. */
    private void startSharedCluster(Duration ttl) {
        shared.getTopic().setTtl(ttl);
        sharedMember = clusters.startSharedMember(shared);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop();
        }
        clients.forEach(client -> client.getLifecycleService().terminate());
        clusters.close();
        stores.close();
    }

    @Test
    void aConsumerAwayForLongerThanTheTopicsTimeToLive_getsWhatExpiredMeanwhilePublishedAgain() {
        startSharedCluster(TTL);
        startRelay(bus(sharedMember));
        ReliableTopicEventBus consumerBus = bus(sharedMember);
        Set<String> handled = handleThenLeave(consumerBus, 10);

        Set<String> missed = appendAndPublish(20);
        awaitExpired(consumerBus);
        subscribe(consumerBus);

        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(missed));
        assertThat(replayed()).as("events put back into the outbox").isGreaterThanOrEqualTo(missed.size());
        await().atMost(Duration.ofSeconds(10)).until(() -> requestsLeft(consumerBus) == 0);
    }

    @Test
    void aConsumerThatLeftATopicBeforeItsFirstMessage_andStayedAwayForLongerThanTheTimeToLive_getsWhatExpired() {
        startSharedCluster(TTL);
        startRelay(bus(sharedMember));
        ReliableTopicEventBus consumerBus = bus(sharedMember);
        // Subscribed to a topic that carried nothing yet, and gone before anything came: it handled no message.
        subscribe(consumerBus).cancel();

        Set<String> missed = appendAndPublish(20);
        awaitExpired(consumerBus);
        subscribe(consumerBus);

        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(missed));
        assertThat(replayed()).isGreaterThanOrEqualTo(missed.size());
    }

    @Test
    void aConsumerThatLeftBeforeItHandledTheMessagesHeldWhenItFirstSubscribed_getsThemPublishedAgain() {
        startSharedCluster(TTL);
        startRelay(bus(sharedMember));
        ReliableTopicEventBus consumerBus = bus(sharedMember);
        Set<String> held = appendAndPublish(5);
        // Its first subscription reads them, but it goes before it handled any: no checkpoint of its own.
        CountDownLatch read = new CountDownLatch(1);
        Subscription unhandled = consumerBus.subscribe(
                CONSUMER, Set.of(Counter.PUBLISHER), checkpoints, (message, topic, after) -> read.countDown());
        awaitQuietly(read);
        unhandled.cancel();

        Set<String> later = appendAndPublish(20);
        awaitExpired(consumerBus);
        subscribe(consumerBus);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> receivedIds().containsAll(held) && receivedIds().containsAll(later));
        assertThat(replayed()).isGreaterThanOrEqualTo(held.size() + later.size());
    }

    @Test
    void aConsumerThatFallsMoreThanTheTimeToLiveBehindWhileListening_getsWhatItSkippedPublishedAgain() {
        FellBehind behind = fallMoreThanTheTimeToLiveBehind();
        // The listener reads on from the oldest message held, and learns of the loss from the next message's
        // sequence.
        Set<String> next = append(1);

        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(behind.skipped()));
        assertThat(receivedIds()).containsAll(behind.first()).containsAll(next);
        assertThat(replayed()).isGreaterThanOrEqualTo(behind.skipped().size());
    }

    @Test
    void aConsumerThatFallsMoreThanTheTimeToLiveBehind_onATopicThatThenStaysQuiet_getsWhatItSkippedPublishedAgain() {
        FellBehind behind = fallMoreThanTheTimeToLiveBehind();
        // Nothing more is published: no next message tells the listener what it skipped. It handled its message
        // later than half the time-to-live, so it looks a time-to-live later whether what it expects next is gone
        // (ADR 0098).

        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(behind.skipped()));
        assertThat(receivedIds()).containsAll(behind.first());
        assertThat(replayed()).isGreaterThanOrEqualTo(behind.skipped().size());
    }

    /** The ids of the message a consumer held, and of the ones that expired meanwhile. */
    private record FellBehind(Set<String> first, Set<String> skipped) {}

    /**
     * A consumer whose first message takes longer than the topic keeps the 20 published after it: it holds it until
     * they expired, then lets it go.
     */
    private FellBehind fallMoreThanTheTimeToLiveBehind() {
        startSharedCluster(TTL);
        startRelay(bus(sharedMember));
        ReliableTopicEventBus consumerBus = bus(sharedMember);
        CountDownLatch release = new CountDownLatch(1);
        Set<String> first = holdTheFirstMessage(consumerBus, release);
        Set<String> skipped = appendAndPublish(20);
        awaitExpired(consumerBus);
        release.countDown();
        return new FellBehind(first, skipped);
    }

    @Test
    void aConsumerOfASharedClusterThatStartedAgain_getsWhatTheLostRingbuffersHeldPublishedAgain() {
        startSharedCluster(Duration.ofSeconds(30));
        HazelcastInstance relayClient = client();
        HazelcastInstance consumerClient = client();
        startRelay(bus(relayClient));
        ReliableTopicEventBus consumerBus = bus(consumerClient);
        Set<String> handled = handleThenLeave(consumerBus, 10);
        // Published to the shared cluster, never read by the consumer: gone with the cluster.
        Set<String> lost = appendAndPublish(20);

        clusters.kill(sharedMember);
        HazelcastInstance restarted = clusters.startSharedMember(shared);
        UUID restartedId = restarted.getCluster().getLocalMember().getUuid();
        for (HazelcastInstance client : List.of(relayClient, consumerClient)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> client.getCluster().getMembers().stream()
                            .anyMatch(member -> member.getUuid().equals(restartedId)));
        }
        subscribe(consumerBus);

        await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds().containsAll(lost));
        assertThat(replayed()).isGreaterThanOrEqualTo(lost.size());
    }

    @Test
    void aListenerWhoseRingbufferWasLostWithAMember_getsWhatItHadNotReadPublishedAgain_onAQuietTopicToo() {
        shared.getTopic().setBackupCount(0);
        startSharedCluster(Duration.ofSeconds(30));
        HazelcastInstance second = clusters.startSharedMember(shared);
        HazelcastInstance relayClient = client();
        HazelcastInstance consumerClient = client();
        startRelay(bus(relayClient));
        ReliableTopicEventBus consumerBus = bus(consumerClient);
        CountDownLatch release = new CountDownLatch(1);
        // Held on its first message while the others wait in the ringbuffer, unread.
        Set<String> first = holdTheFirstMessage(consumerBus, release);
        Set<String> unread = appendAndPublish(20);

        // The member that holds the topic's ringbuffer dies; with no backup, the ringbuffer starts again empty.
        String ringbuffer =
                HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + consumerBus.topicName(Counter.PUBLISHER, 0);
        Member owner =
                sharedMember.getPartitionService().getPartition(ringbuffer).getOwner();
        clusters.kill(owner.localMember() ? sharedMember : second);
        release.countDown();

        // Nothing more is published: no next message tells the listener what it lost.
        await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds().containsAll(unread));
        assertThat(receivedIds()).containsAll(first);
        assertThat(replayed()).isGreaterThanOrEqualTo(unread.size());
    }

    @Test
    void aConsumerWhoseCheckpointTheTopicConfirms_asksForNothing() {
        startSharedCluster(Duration.ofSeconds(30));
        startRelay(bus(sharedMember));
        ReliableTopicEventBus consumerBus = bus(sharedMember);
        Set<String> handled = handleThenLeave(consumerBus, 10);
        Set<String> later = appendAndPublish(5);

        subscribe(consumerBus);

        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(later));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(received).as("each message once").hasSize(handled.size() + later.size());
        assertThat(replayed()).isZero();
        assertThat(requestsLeft(consumerBus)).isZero();
    }

    private void startRelay(ReliableTopicEventBus bus) {
        HazelcastInstance member = clusters.startMember(clusters.newServiceCluster());
        LeaseTable leases =
                new LeaseTable(member, HazelcastNames.OUTBOX_LEASES, BUCKETS, SETTINGS.leaseTtl(), Clock.systemUTC());
        OutboxReplay replay = new OutboxReplay(
                stores.jdbc(),
                bus,
                Set.of(Counter.PUBLISHER),
                Counter.registry(),
                signal,
                BUCKETS,
                Duration.ofSeconds(1),
                Duration.ofHours(12),
                meters,
                Clock.systemUTC(),
                // A few events a statement: every replay here takes several.
                7);
        relay = new OutboxRelay(
                stores.jdbc(),
                leases,
                member,
                bus,
                signal,
                Counter.registry(),
                SETTINGS,
                replay,
                meters,
                Clock.systemUTC());
        relay.start();
    }

    /** A bus of one shard: every stream's events on one topic, whose messages it knows to expire after {@link #TTL}. */
    private static ReliableTopicEventBus bus(HazelcastInstance instance) {
        return new ReliableTopicEventBus(instance, HazelcastNames.EVENT_TOPIC_PREFIX, 1, Duration.ofSeconds(30), TTL);
    }

    private Subscription subscribe(ReliableTopicEventBus bus) {
        return bus.subscribe(CONSUMER, Set.of(Counter.PUBLISHER), checkpoints, received::add);
    }

    private HazelcastInstance client() {
        ClientConfig config = HazelcastConfigs.sharedClient(shared, null);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setMaxBackoffMillis(500);
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        clients.add(client);
        return client;
    }

    /** The consumer handles {@code count} new events and leaves: its checkpoint names the last. Returns their ids. */
    private Set<String> handleThenLeave(ReliableTopicEventBus consumerBus, int count) {
        Subscription subscription = subscribe(consumerBus);
        Set<String> handled = append(count);
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(handled));
        subscription.cancel();
        return handled;
    }

    /**
     * Subscribes a consumer that holds its first message until {@code release} opens, appends that message, and
     * returns its id once the consumer holds it.
     */
    private Set<String> holdTheFirstMessage(ReliableTopicEventBus consumerBus, CountDownLatch release) {
        CountDownLatch firstHeld = new CountDownLatch(1);
        consumerBus.subscribe(CONSUMER, Set.of(Counter.PUBLISHER), checkpoints, (message, topic, after) -> {
            if (received.isEmpty()) {
                firstHeld.countDown();
                awaitQuietly(release);
            }
            received.add(message);
            checkpoints.remember(CONSUMER, topic, after);
        });
        Set<String> first = append(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> firstHeld.getCount() == 0);
        return first;
    }

    /** {@link #append}, then waits until the relay has published them. */
    private Set<String> appendAndPublish(int count) {
        Set<String> ids = append(count);
        await().atMost(Duration.ofSeconds(30)).until(() -> pending() == 0);
        return ids;
    }

    /** Appends one event to each of {@code count} new streams; returns their event ids. */
    private Set<String> append(int count) {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < count; i++) {
            store.append(
                            "counter-" + streams++,
                            ExpectedVersion.noStream(),
                            List.of(new Incremented(1)),
                            EventMetadata.newFlow())
                    .events()
                    .forEach(envelope -> ids.add(envelope.eventId().toString()));
        }
        return ids;
    }

    /** Waits until the topic's ringbuffer holds none of the messages published so far. */
    private void awaitExpired(ReliableTopicEventBus bus) {
        String ringbuffer = HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + bus.topicName(Counter.PUBLISHER, 0);
        long published = streams;
        await().pollDelay(TTL)
                .atMost(Duration.ofSeconds(30))
                .until(() -> sharedMember.getRingbuffer(ringbuffer).headSequence() >= published);
    }

    private Set<String> receivedIds() {
        return received.stream().map(EventMessage::eventId).collect(Collectors.toSet());
    }

    private int pending() {
        Integer count = stores.jdbc().queryForObject("select count(*) from outbox", Integer.class);
        return count == null ? 0 : count;
    }

    private double replayed() {
        return meters.counter("sagaflow.outbox.replayed").count();
    }

    private static int requestsLeft(ReliableTopicEventBus bus) {
        return bus.replays().pending(topic -> true).size();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
