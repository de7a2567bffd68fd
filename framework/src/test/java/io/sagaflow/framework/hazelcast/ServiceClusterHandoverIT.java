package io.sagaflow.framework.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.config.EventJournalConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.Partition;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A service member that stops gracefully hands its partitions over whole (ADR 0073): every map's entries and the
 * event journal the saga job reads (ADR 0008) are all on the member that stays. A member whose partition count
 * differs from its cluster's is refused, which is why the count changes only with the whole cluster stopped.
 */
class ServiceClusterHandoverIT {

    private static final List<String> MAPS = List.of("inbox", "views", "deadlines");
    private static final int ENTRIES = 300;

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();

    @AfterEach
    void stop() {
        clusters.close();
    }

    @Test
    void aMemberThatStopsLeavesEveryEntryAndEveryJournalEventWithTheMemberThatStays() throws Exception {
        ServiceClusterSpec spec = clusters.newServiceCluster();
        ServiceClusterCustomizer journal = config -> config.getMapConfig("inbox")
                .setBackupCount(1)
                .setEventJournalConfig(new EventJournalConfig().setEnabled(true).setCapacity(11 * 1_000));
        HazelcastInstance staying = clusters.startMember(spec, journal);
        HazelcastInstance leaving = clusters.startMember(spec, journal);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> staying.getCluster().getMembers().size() == 2
                        && staying.getPartitionService().isClusterSafe());
        for (String name : MAPS) {
            IMap<String, String> map = leaving.getMap(name);
            IntStream.range(0, ENTRIES).forEach(i -> map.set("key-" + i, name + "-" + i));
        }
        assertThat(partitionsOwnedBy(leaving)).isNotEmpty();
        assertThat(staying.getConfig().getProperty(HazelcastConfigs.FRAGMENTED_MIGRATION))
                .isEqualTo("false");

        leaving.shutdown();

        await().atMost(Duration.ofSeconds(20))
                .until(() -> staying.getCluster().getMembers().size() == 1);
        for (String name : MAPS) {
            IMap<String, String> map = staying.getMap(name);
            assertThat(map.size()).as(name).isEqualTo(ENTRIES);
            assertThat(map.getAll(keys())).as(name).isEqualTo(expected(name));
        }
        assertThat(journalEvents(staying.getMap("inbox"), staying)).hasSize(ENTRIES);
    }

    @Test
    void aMemberWithAnotherPartitionCountDoesNotStart_soARollingUpdateCannotChangeTheCount() {
        ServiceClusterSpec spec = clusters.newServiceCluster();
        HazelcastInstance running = clusters.startMember(spec);
        spec.service().setPartitionCount(spec.service().getPartitionCount() + 2);

        assertThatThrownBy(() -> clusters.startMember(spec)).isInstanceOf(IllegalStateException.class);
        assertThat(running.getCluster().getMembers()).hasSize(1);
    }

    private static List<Partition> partitionsOwnedBy(HazelcastInstance member) {
        return member.getPartitionService().getPartitions().stream()
                .filter(p -> member.getCluster().getLocalMember().equals(p.getOwner()))
                .toList();
    }

    private static Set<String> keys() {
        return IntStream.range(0, ENTRIES).mapToObj(i -> "key-" + i).collect(Collectors.toSet());
    }

    private static Map<String, String> expected(String name) {
        return IntStream.range(0, ENTRIES).boxed().collect(Collectors.toMap(i -> "key-" + i, i -> name + "-" + i));
    }

    /** Every event in every partition's journal of {@code map}, read from its oldest. */
    @SuppressWarnings("unchecked")
    private static List<String> journalEvents(IMap<String, String> map, HazelcastInstance member) throws Exception {
        EventJournalReader<EventJournalMapEvent<String, String>> reader =
                (EventJournalReader<EventJournalMapEvent<String, String>>) map;
        List<String> keys = new ArrayList<>();
        int partitions = member.getPartitionService().getPartitions().size();
        for (int partition = 0; partition < partitions; partition++) {
            long oldest = reader.subscribeToEventJournal(partition)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS)
                    .getOldestSequence();
            var events = reader.readFromEventJournal(
                            oldest, 0, ENTRIES, partition, e -> true, EventJournalMapEvent::getKey)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            events.forEach(keys::add);
        }
        return keys;
    }
}
