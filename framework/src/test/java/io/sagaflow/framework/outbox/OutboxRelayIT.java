package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.EventPublisher;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two replicas of one service, each with its own relay and member of the service's cluster, compete for the same
 * outbox on a real PostgreSQL and publish to a real shared cluster.
 */
class OutboxRelayIT {

    private static final int STREAMS = 1_000;
    private static final int EVENTS_PER_STREAM = 10;
    private static final int BUCKETS = 16;
    private static final OutboxSettings SETTINGS = new OutboxSettings(
            BUCKETS,
            200,
            Duration.ofMillis(50),
            Duration.ofSeconds(3),
            Duration.ofHours(1),
            Duration.ofMinutes(1),
            10_000);

    /** Relays that neither poll nor renew their leases within a test. */
    private static final OutboxSettings QUIET = new OutboxSettings(
            BUCKETS,
            SETTINGS.batchSize(),
            Duration.ofMinutes(10),
            Duration.ofMinutes(30),
            Duration.ofHours(1),
            Duration.ofMinutes(1),
            10_000);

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final List<OutboxRelay> relays = new ArrayList<>();
    private final List<EventMessage> received = Collections.synchronizedList(new ArrayList<>());
    private Stores stores;
    private JdbcEventStore store;
    private ReliableTopicEventBus bus;
    private ServiceClusterSpec service;

    @BeforeEach
    void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        store = stores.eventStore(new OutboxWriter(BUCKETS, new OutboxSignal()));
        HazelcastInstance shared = clusters.startSharedMember(clusters.newSharedCluster());
        bus = new ReliableTopicEventBus(shared, HazelcastNames.EVENT_TOPIC_PREFIX, 4, Duration.ofSeconds(30));
        bus.subscribe("counting-consumer", Set.of(Counter.PUBLISHER), new InMemoryCheckpoints(), received::add);
        service = clusters.newServiceCluster();
        for (int s = 0; s < STREAMS; s++) {
            store.append(
                    "counter-" + s,
                    ExpectedVersion.noStream(),
                    IntStream.range(0, EVENTS_PER_STREAM)
                            .mapToObj(i -> new Incremented(i))
                            .toList(),
                    EventMetadata.newFlow());
        }
        assertThat(pending()).isEqualTo(STREAMS * EVENTS_PER_STREAM);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(OutboxRelay::stop);
        clusters.close();
        stores.close();
    }

    @Test
    void twoMembersCompetingForTenThousandEntriesPublishEachExactlyOnceInStreamOrder() {
        HazelcastInstance a = clusters.startMember(service);
        HazelcastInstance b = clusters.startMember(service);
        SimpleMeterRegistry metersA = new SimpleMeterRegistry();
        SimpleMeterRegistry metersB = new SimpleMeterRegistry();
        relay(a, bus, metersA).start();
        relay(b, bus, metersB).start();

        await().atMost(Duration.ofMinutes(2))
                .until(() -> received.size() >= STREAMS * EVENTS_PER_STREAM && pending() == 0);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);

        Map<String, Long> deliveries = countByEventId();
        assertThat(deliveries).hasSize(STREAMS * EVENTS_PER_STREAM);
        assertThat(deliveries.values()).as("every entry published exactly once").allMatch(count -> count == 1);
        assertThat(received).hasSize(STREAMS * EVENTS_PER_STREAM);
        assertStreamOrderOfFirstDeliveries();
        double publishedByA = metersA.counter("sagaflow.outbox.published").count();
        double publishedByB = metersB.counter("sagaflow.outbox.published").count();
        assertThat(publishedByA + publishedByB).isEqualTo(STREAMS * EVENTS_PER_STREAM);
        assertThat(publishedByA).as("both members took part").isPositive();
        assertThat(publishedByB).as("both members took part").isPositive();
    }

    @Test
    void whenOneMemberIsKilledMidBatchTheOtherPublishesTheRest() {
        HazelcastInstance a = clusters.startMember(service);
        HazelcastInstance b = clusters.startMember(service);
        AtomicInteger publishedByA = new AtomicInteger();
        // A dies after its first batch: a later one may never come, B having published the rest first (it failed so
        // once, waiting for A's 2 000th entry).
        int killAfter = 1;
        // A publishes a batch, then its process dies before the batch is marked as published.
        // A dead process publishes nothing more: without the flag, A's relay thread would retry the failed batch.
        AtomicBoolean dead = new AtomicBoolean();
        EventPublisher dyingPublisher = messages -> {
            if (dead.get()) {
                throw new IllegalStateException("replica A is dead");
            }
            bus.publish(messages);
            if (publishedByA.addAndGet(messages.size()) >= killAfter) {
                dead.set(true);
                clusters.kill(a);
                throw new IllegalStateException("replica A died mid-batch");
            }
        };
        OutboxRelay relayA = relay(a, dyingPublisher, new SimpleMeterRegistry());
        relayA.start();
        relay(b, bus, new SimpleMeterRegistry()).start();
        await().atMost(Duration.ofMinutes(1))
                .until(() -> !a.getLifecycleService().isRunning());
        relayA.stop();
        assertThat(pending()).as("A died with work left").isPositive();

        await().atMost(Duration.ofMinutes(2)).until(() -> pending() == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> countByEventId().size() == STREAMS * EVENTS_PER_STREAM);

        Map<String, Long> deliveries = countByEventId();
        assertThat(deliveries).as("every entry published at least once").hasSize(STREAMS * EVENTS_PER_STREAM);
        long duplicates = received.size() - deliveries.size();
        assertThat(duplicates)
                .as("only A's unconfirmed last batch is published twice")
                .isLessThanOrEqualTo(SETTINGS.batchSize());
        assertStreamOrderOfFirstDeliveries();
    }

    @Test
    void deletesEachBatchInTheStatementThatSelectsTheNextAndTheLastOneBeforeStopping() {
        OutboxRelay relay = soleRelay();
        int all = STREAMS * EVENTS_PER_STREAM;

        assertThat(relay.publishOnce()).isEqualTo(SETTINGS.batchSize());
        assertThat(pending()).as("published, not yet deleted").isEqualTo(all);
        assertThat(relay.publishOnce()).isEqualTo(SETTINGS.batchSize());
        assertThat(pending())
                .as("the first batch deleted while the second was selected")
                .isEqualTo(all - SETTINGS.batchSize());
        relay.deletePublished();
        assertThat(pending()).isEqualTo(all - 2 * SETTINGS.batchSize());

        relay.start();
        await().atMost(Duration.ofMinutes(2)).until(() -> received.size() >= all);
        relay.stop();
        assertThat(pending()).as("stopping deletes the last batch").isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> countByEventId().size() == all);
        assertThat(received).as("no row published twice").hasSize(all);
    }

    @Test
    void aPublishedRowThatMovedIsPublishedAgainAndTheRowNowInItsPlaceIsKept() {
        OutboxRelay relay = soleRelay();
        int all = STREAMS * EVENTS_PER_STREAM;
        assertThat(relay.publishOnce()).isEqualTo(SETTINGS.batchSize());

        // The published batch moves before it is deleted: new versions at the table's end, then a rewrite that packs
        // the rows, so the batch's old places hold rows of later batches, none of them published yet.
        JdbcTemplate jdbc = stores.jdbc();
        Long lastPublished = jdbc.queryForObject(
                "select max(id) from (select id from outbox order by id limit ?) b", Long.class, SETTINGS.batchSize());
        jdbc.update("update outbox set payload = payload where id <= ?", lastPublished);
        jdbc.execute("vacuum full outbox");
        relay.deletePublished();
        assertThat(pending()).as("no row deleted at an old place").isEqualTo(all);

        relay.start();
        await().atMost(Duration.ofMinutes(2)).until(() -> pending() == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> countByEventId().size() == all);
        assertThat(received).as("every row published, the moved batch twice").hasSize(all + SETTINGS.batchSize());
        assertStreamOrderOfFirstDeliveries();
    }

    @Test
    void aCommitWakesTheRelayOfTheReplicaThatHoldsItsStreamsBucketLongBeforeThatRelaysPoll() {
        // Neither relay polls or renews within the test: only wake-ups make them publish again.
        HazelcastInstance a = clusters.startMember(service);
        HazelcastInstance b = clusters.startMember(service);
        OutboxSignal signalA = new OutboxSignal();
        OutboxSignal signalB = new OutboxSignal();
        LeaseTable leasesB = leases(b, QUIET);
        SimpleMeterRegistry metersA = new SimpleMeterRegistry();
        // B's relay runs first and takes every bucket; when A's starts, B gives half of them up to it (ADR 0074).
        relay(b, leasesB, bus, new SimpleMeterRegistry(), signalB, QUIET).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> leasesB.held().size() == BUCKETS);
        LeaseTable leasesA = leases(a, QUIET);
        relay(a, leasesA, bus, metersA, signalA, QUIET).start();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        leasesA.held().size() == BUCKETS / 2 && leasesB.held().size() == BUCKETS / 2);
        await().atMost(Duration.ofMinutes(2)).until(() -> received.size() >= STREAMS * EVENTS_PER_STREAM);

        JdbcEventStore storeOfA = stores.eventStore(new OutboxWriter(BUCKETS, signalA));
        String streamOfB = IntStream.range(0, 1_000)
                .mapToObj(i -> "woken-" + i)
                .filter(stream -> leasesB.held().contains(OutboxWriter.bucketOf(stream, BUCKETS)))
                .findFirst()
                .orElseThrow();
        storeOfA.append(streamOfB, ExpectedVersion.noStream(), List.of(new Incremented(1)), EventMetadata.newFlow());

        await().atMost(Duration.ofSeconds(20)).until(() -> countByEventId().size() == STREAMS * EVENTS_PER_STREAM + 1);
        assertThat(received.getLast().streamId()).isEqualTo(streamOfB);
        assertThat(metersA.counter("sagaflow.outbox.wakeups").count()).isEqualTo(1);
    }

    @Test
    void aReplicaThatJoinsSharesTheBucketsOnlyOnceItsRelayRuns_andAtOnceThen_andBackWhenItStops() {
        // Neither relay renews within the test: only their news of each other moves the buckets (ADR 0074).
        HazelcastInstance a = clusters.startMember(service);
        LeaseTable leasesA = leases(a, QUIET);
        relay(a, leasesA, bus, new SimpleMeterRegistry(), new OutboxSignal(), QUIET)
                .start();
        await().atMost(Duration.ofSeconds(30)).until(() -> leasesA.held().size() == BUCKETS);

        // A replica joins the cluster early in its start, long before its relay runs: nobody would take half the
        // buckets if A gave them up now.
        HazelcastInstance b = clusters.startMember(service);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> a.getCluster().getMembers().size() == 2);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> leasesA.held().size() == BUCKETS);

        LeaseTable leasesB = leases(b, QUIET);
        OutboxRelay relayB = relay(b, leasesB, bus, new SimpleMeterRegistry(), new OutboxSignal(), QUIET);
        relayB.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        leasesA.held().size() == BUCKETS / 2 && leasesB.held().size() == BUCKETS / 2);

        relayB.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> leasesA.held().size() == BUCKETS);
        await().atMost(Duration.ofMinutes(2)).until(() -> pending() == 0);
        assertThat(countByEventId()).hasSize(STREAMS * EVENTS_PER_STREAM);
    }

    /** A relay on the only member of the service's cluster, holding every bucket. */
    private OutboxRelay soleRelay() {
        HazelcastInstance member = clusters.startMember(service);
        LeaseTable leases = leases(member);
        leases.rebalance();
        return relay(member, leases, bus, new SimpleMeterRegistry());
    }

    private OutboxRelay relay(HazelcastInstance member, EventPublisher publisher, SimpleMeterRegistry meters) {
        return relay(member, leases(member), publisher, meters);
    }

    private LeaseTable leases(HazelcastInstance member) {
        return leases(member, SETTINGS);
    }

    private LeaseTable leases(HazelcastInstance member, OutboxSettings settings) {
        return new LeaseTable(member, HazelcastNames.OUTBOX_LEASES, BUCKETS, settings.leaseTtl(), Clock.systemUTC());
    }

    private OutboxRelay relay(
            HazelcastInstance member, LeaseTable leases, EventPublisher publisher, SimpleMeterRegistry meters) {
        return relay(member, leases, publisher, meters, new OutboxSignal(), SETTINGS);
    }

    private OutboxRelay relay(
            HazelcastInstance member,
            LeaseTable leases,
            EventPublisher publisher,
            SimpleMeterRegistry meters,
            OutboxSignal signal,
            OutboxSettings settings) {
        OutboxRelay relay = new OutboxRelay(
                stores.jdbc(),
                leases,
                member,
                publisher,
                signal,
                Counter.registry(),
                settings,
                null,
                meters,
                Clock.systemUTC());
        relays.add(relay);
        return relay;
    }

    /** Rows still in the outbox: a published row is deleted, none is kept marked (ADR 0046). */
    private int pending() {
        return stores.jdbc().queryForObject("select count(*) from outbox", Integer.class);
    }

    private Map<String, Long> countByEventId() {
        Map<String, Long> counts = new HashMap<>();
        synchronized (received) {
            received.forEach(message -> counts.merge(message.eventId(), 1L, Long::sum));
        }
        return counts;
    }

    private void assertStreamOrderOfFirstDeliveries() {
        Map<String, Long> lastVersion = new HashMap<>();
        Map<String, Boolean> seen = new HashMap<>();
        synchronized (received) {
            for (EventMessage message : received) {
                if (seen.putIfAbsent(message.eventId(), true) != null) {
                    continue;
                }
                Long previous = lastVersion.put(message.streamId(), message.version());
                assertThat(message.version())
                        .as("stream %s in order", message.streamId())
                        .isEqualTo(previous == null ? 1 : previous + 1);
            }
        }
    }
}
