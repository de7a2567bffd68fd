package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Opened;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OutboxPruningIT {

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private Stores stores;

    @BeforeEach
    void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
    }

    @AfterEach
    void tearDown() {
        clusters.close();
        stores.close();
    }

    @Test
    void prunesPublishedRowsPastTheRetentionAndKeepsPendingAndRecentOnes() {
        var store = stores.eventStore(new OutboxWriter(4, new OutboxSignal()));
        for (String stream : List.of("old-published", "recent-published", "pending")) {
            store.append(stream, ExpectedVersion.noStream(), List.of(new Opened(stream, 1)), EventMetadata.newFlow());
        }
        stores.jdbc()
                .update(
                        "update outbox set published_at = now() - interval '2 hours' where stream_id = 'old-published'");
        stores.jdbc().update("update outbox set published_at = now() where stream_id = 'recent-published'");
        HazelcastInstance member = clusters.startMember(clusters.newServiceCluster());
        OutboxSettings settings = new OutboxSettings(
                4, 100, Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofHours(1), Duration.ofMinutes(1), 1);
        OutboxRelay relay = new OutboxRelay(
                stores.jdbc(),
                new LeaseTable(member, HazelcastNames.OUTBOX_LEASES, 4, settings.leaseTtl(), Clock.systemUTC()),
                member,
                messages -> {},
                new OutboxSignal(),
                Counter.registry(),
                settings,
                null,
                new SimpleMeterRegistry(),
                Clock.systemUTC());

        assertThat(relay.prune()).isEqualTo(1);
        assertThat(stores.jdbc().queryForList("select stream_id from outbox order by id", String.class))
                .containsExactly("recent-published", "pending");
    }
}
