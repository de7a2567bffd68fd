package io.sagaflow.order.fulfilment.adapter.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.jet.core.DAG;
import com.hazelcast.jet.core.Edge;
import com.hazelcast.jet.pipeline.Sinks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The saga job's vertices get the parallelism its settings ask for (ADR 0038), without a cluster. */
class SagaJobSettingsTest {

    @Test
    void oneJournalReaderAndOneSinkPerMember_besideTheSagaProcessors() {
        Map<String, Integer> parallelism = localParallelism(new SagaJob.Settings(4, 64, Duration.ofSeconds(10), 1));

        assertThat(parallelism).hasSize(3);
        assertThat(parallelism.get(source(parallelism))).isEqualTo(1);
        assertThat(parallelism.values()).containsExactlyInAnyOrder(1, 4, 1);
    }

    @Test
    void noJournalReadersLeavesTheSourceToHazelcast_whoseMapJournalSourcePrefersTwo() {
        Map<String, Integer> parallelism = localParallelism(new SagaJob.Settings(3, 64, Duration.ofSeconds(5), 0));

        assertThat(parallelism.get(source(parallelism))).isEqualTo(2);
        assertThat(parallelism.values()).contains(3);
    }

    @Test
    void onlyTheEdgeIntoTheSagaProcessorsMayCrossMembers_groupedByOrder() {
        DAG dag = SagaJob.pipeline(
                        SagaJob.inboxJournal(),
                        SagaJob.memberLanes(),
                        Sinks.noop(),
                        new SagaJob.Settings(4, 64, Duration.ofSeconds(10), 1))
                .toDag();
        List<Edge> edges = new ArrayList<>();
        dag.edgeIterator().forEachRemaining(edges::add);

        // Jet's flow control paces the receiving ends of distributed edges; the services send it every second, not
        // every 100 ms (ADR 0057). Its receive window grows with the period, so this edge is not held back by it.
        assertThat(edges).filteredOn(Edge::isDistributed).singleElement().satisfies(edge -> {
            assertThat(edge.getSourceName()).contains(SagaNames.INBOX);
            assertThat(edge.getRoutingPolicy()).isEqualTo(Edge.RoutingPolicy.PARTITIONED);
        });
        assertThat(edges).hasSize(2);
    }

    @Test
    void aMessageIsRoutedByThePartitionKeyThatPlacedItInTheInbox_soItStaysOnTheMemberThatReadIt() {
        UUID order = UUID.randomUUID();
        InboxKey key = new InboxKey("payment-captured-1", order);

        // Jet routes a partitioned edge's item to the owner of its key's partition; the inbox entry (PartitionAware)
        // and the saga's timer (keyed by the order id's text) are on the partition of this same string.
        assertThat(SagaJob.routingKey(new SagaJob.InboxItem(key, null)))
                .isEqualTo(key.getPartitionKey())
                .isEqualTo(order.toString());
    }

    @Test
    void settingsThatCannotRunAreRefused() {
        assertThatThrownBy(() -> new SagaJob.Settings(0, 64, Duration.ofSeconds(5), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaJob.Settings(4, 0, Duration.ofSeconds(5), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaJob.Settings(4, 64, Duration.ofSeconds(5), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaJob.Settings(4, 64, Duration.ZERO, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaJob.Settings(4, 64, Duration.ofSeconds(5), 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("call time-out");
    }

    private static Map<String, Integer> localParallelism(SagaJob.Settings settings) {
        DAG dag = SagaJob.pipeline(SagaJob.inboxJournal(), SagaJob.memberLanes(), Sinks.noop(), settings)
                .toDag();
        Map<String, Integer> parallelism = new HashMap<>();
        dag.forEach(vertex -> parallelism.put(vertex.getName(), vertex.getLocalParallelism()));
        return parallelism;
    }

    private static String source(Map<String, Integer> parallelism) {
        return parallelism.keySet().stream()
                .filter(name -> name.contains(SagaNames.INBOX))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no journal source among " + parallelism.keySet()));
    }
}
