package io.sagaflow.framework.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.Opened;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class ProjectionRebuilderIT {

    /** Sums the increments per counter: a view where counting an event twice shows. */
    static final class CounterTotals implements Projection {
        @Override
        public String name() {
            return "counter-totals";
        }

        @Override
        public void apply(EventEnvelope<Object> event, ViewWrites writes) {
            switch (event.payload()) {
                case Opened opened ->
                    writes.update("insert into counter_total (stream_id, total) values (?, 0)", event.streamId());
                case Incremented incremented ->
                    writes.update(
                            "update counter_total set total = total + ? where stream_id = ?",
                            incremented.by(),
                            event.streamId());
                default -> {}
            }
        }

        @Override
        public void reset(JdbcTemplate jdbc) {
            jdbc.update("delete from counter_total");
        }
    }

    private Stores stores;
    private JdbcEventStore store;
    private final CounterTotals totals = new CounterTotals();

    @BeforeEach
    void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
        stores.jdbc().execute("create table counter_total (stream_id text primary key, total bigint not null)");
        store = stores.eventStore(new ProjectionUpdater(List.of(totals), stores.jdbc()));
    }

    @AfterEach
    void tearDown() {
        stores.close();
    }

    @Test
    void theViewIsUpdatedInTheAppendTransaction() {
        store.append(
                "c-1",
                ExpectedVersion.noStream(),
                List.of(new Opened("c", 9), new Incremented(4)),
                EventMetadata.newFlow());
        assertThat(total("c-1")).isEqualTo(4);
    }

    @Test
    void aRebuildDuringConcurrentAppendsCountsEveryEventExactlyOnce() throws Exception {
        int streams = 50;
        for (int s = 0; s < streams; s++) {
            store.append(
                    "c-" + s, ExpectedVersion.noStream(), List.of(new Opened("c", 1_000)), EventMetadata.newFlow());
        }
        ProjectionRebuilder rebuilder = new ProjectionRebuilder(stores.jdbc(), stores.transactions(), store);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> writer = pool.submit(() -> {
                for (int round = 0; round < 20; round++) {
                    for (int s = 0; s < streams; s++) {
                        store.append(
                                "c-" + s, ExpectedVersion.any(), List.of(new Incremented(1)), EventMetadata.newFlow());
                    }
                }
            });
            for (int i = 0; i < 5; i++) {
                rebuilder.rebuild(totals);
            }
            writer.get(2, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        for (int s = 0; s < streams; s++) {
            assertThat(total("c-" + s)).as("c-%d", s).isEqualTo(20);
        }
        assertThat(stores.jdbc().queryForObject("select count(*) from es_event", Long.class))
                .isEqualTo(streams * 21L);
        assertThat(rebuilder.rebuild(totals)).isEqualTo(streams * 21L);
        assertThat(total("c-7")).isEqualTo(20);
    }

    private long total(String stream) {
        return stores.jdbc().queryForObject("select total from counter_total where stream_id = ?", Long.class, stream);
    }
}
