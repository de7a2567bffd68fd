package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two members of one service cluster: A's commits wake B's relay for the buckets B holds, coalesced, none lost. */
class RelayWakeupsIT {

    private static final int BUCKETS = 4;
    private static final int OF_A = 0;
    private static final int OF_B = 1;
    private static final int FREE = 2;

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final SimpleMeterRegistry metersA = new SimpleMeterRegistry();
    private final OutboxSignal signalB = new OutboxSignal();
    private RelayWakeups wakeupsA;
    private RelayWakeups wakeupsB;

    @BeforeEach
    void setUp() {
        ServiceClusterSpec service = clusters.newServiceCluster();
        HazelcastInstance a = clusters.startMember(service);
        HazelcastInstance b = clusters.startMember(service);
        wakeupsA = new RelayWakeups(a, new OutboxSignal(), metersA);
        wakeupsB = new RelayWakeups(b, signalB, new SimpleMeterRegistry());
        wakeupsA.holders(Map.of(OF_A, uuid(a), OF_B, uuid(b), 3, UUID.randomUUID()), BUCKETS);
    }

    @AfterEach
    void tearDown() {
        wakeupsA.close();
        wakeupsB.close();
        clusters.close();
    }

    @Test
    void aCommitIntoABucketAnotherMemberHoldsWakesThatMembersRelayAndNotThisOnes() throws InterruptedException {
        assertThat(wakeupsA.wakeHoldersOf(buckets(OF_B)))
                .as("A's relay to wake")
                .isFalse();

        assertThat(signalB.await(Duration.ofSeconds(10))).as("B's relay woken").isTrue();
        assertThat(sent()).isEqualTo(1);
    }

    @Test
    void bucketsThisMemberHoldsNobodyHoldsOrAMemberThatLeftHoldsSendNothing() throws InterruptedException {
        assertThat(wakeupsA.wakeHoldersOf(buckets(OF_A)))
                .as("A's relay to wake")
                .isTrue();
        assertThat(wakeupsA.wakeHoldersOf(buckets(FREE, 3)))
                .as("A's relay to wake")
                .isFalse();

        assertThat(signalB.await(Duration.ofMillis(500))).isFalse();
        assertThat(sent()).isZero();
    }

    @Test
    void beforeItsRelayFirstRebalancedAMemberWakesOnlyItsOwnRelay() {
        assertThat(wakeupsB.wakeHoldersOf(buckets(OF_A, OF_B))).isTrue();
    }

    @Test
    void aBurstOfCommitsSendsAtMostOneWakeupPerSpacingAndTheLastCommitIsNeverLeftWithoutOne() throws Exception {
        BitSet ofB = buckets(OF_B);
        long started = System.nanoTime();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 20_000; i++) {
                    wakeupsA.wakeHoldersOf(ofB);
                }
            }));
        }
        for (Thread writer : writers) {
            writer.join();
        }
        long elapsedNanos = System.nanoTime() - started;

        long spacings = elapsedNanos / RelayWakeups.SPACING.toNanos();
        assertThat(sent()).as("coalesced: 80 000 commits").isPositive().isLessThanOrEqualTo(spacings + 2);
        // Whatever B got during the burst, a commit after B's relay last woke is followed by a wake-up.
        while (signalB.await(Duration.ofMillis(200))) {
            // drain the wake-ups of the burst
        }
        wakeupsA.wakeHoldersOf(ofB);
        assertThat(signalB.await(Duration.ofSeconds(10)))
                .as("the last commit woke B")
                .isTrue();
    }

    private double sent() {
        return metersA.counter("sagaflow.outbox.wakeups").count();
    }

    private static BitSet buckets(int... buckets) {
        BitSet set = new BitSet(BUCKETS);
        for (int bucket : buckets) {
            set.set(bucket);
        }
        return set;
    }

    private static UUID uuid(HazelcastInstance member) {
        return member.getCluster().getLocalMember().getUuid();
    }
}
