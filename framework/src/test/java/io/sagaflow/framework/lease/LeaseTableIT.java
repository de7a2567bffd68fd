package io.sagaflow.framework.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Slots shared by the members that take part, on two real members (ADR 0074): a member that has joined the cluster but
 * not rebalanced yet takes nothing from the others, and the others hear at once when it joins or leaves the cluster
 * and when it starts or stops taking part.
 */
class LeaseTableIT {

    private static final String MAP = "sagaflow.leases.test";
    private static final int SLOTS = 16;
    private static final Duration TTL = Duration.ofMinutes(1);

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private ServiceClusterSpec spec;
    private LeaseTable first;

    @BeforeEach
    void startFirst() {
        spec = clusters.newServiceCluster();
        first = table(clusters.startMember(spec));
        assertThat(first.rebalance()).hasSize(SLOTS);
    }

    @AfterEach
    void stop() {
        clusters.close();
    }

    @Test
    void aMemberThatJoinedButDoesNotTakePartYetLeavesTheOthersTheirSlots() {
        HazelcastInstance joined = clusters.startMember(spec);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> joined.getCluster().getMembers().size() == 2);
        LeaseTable second = table(joined);

        assertThat(first.rebalance()).as("nobody would take the slots given up").hasSize(SLOTS);

        assertThat(second.rebalance()).as("all held by the first").isEmpty();
        assertThat(first.rebalance()).hasSize(SLOTS / 2);
        assertThat(second.rebalance()).hasSize(SLOTS / 2);
        assertThat(first.rebalance()).hasSize(SLOTS / 2);
    }

    @Test
    void theOthersHearWhenAMemberJoinsLeavesStartsOrStopsTakingPartOrGivesSlotsUp_notWhenItRenews() {
        AtomicInteger changes = new AtomicInteger();
        Runnable stopListening = first.onChange(changes::incrementAndGet);
        HazelcastInstance joined = clusters.startMember(spec);
        await().atMost(Duration.ofSeconds(5)).until(() -> changes.get() == 1); // it joined
        LeaseTable second = table(joined);

        second.rebalance(); // takes part
        await().atMost(Duration.ofSeconds(5)).until(() -> changes.get() == 2);

        first.rebalance(); // gives half up: a change for each slot
        await().atMost(Duration.ofSeconds(5)).until(() -> changes.get() == 2 + SLOTS / 2);
        second.rebalance(); // claims them
        second.rebalance(); // renews
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> changes.get() == 2 + SLOTS / 2);

        second.releaseAll();
        await().atMost(Duration.ofSeconds(5)).until(() -> changes.get() == 3 + SLOTS);
        assertThat(first.rebalance()).hasSize(SLOTS);

        joined.getLifecycleService().terminate(); // leaves
        await().atMost(Duration.ofSeconds(20)).until(() -> changes.get() == 4 + SLOTS);

        stopListening.run();
        table(clusters.startMember(spec)).rebalance();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> changes.get() == 4 + SLOTS);
    }

    private static LeaseTable table(HazelcastInstance member) {
        return new LeaseTable(member, MAP, SLOTS, TTL, Clock.systemUTC());
    }
}
