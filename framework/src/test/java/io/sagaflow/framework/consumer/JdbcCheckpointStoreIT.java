package io.sagaflow.framework.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.Stores;
import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.sample.Counter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Checkpoints in {@code consumer_checkpoint} on a real PostgreSQL (ADR 0089). */
class JdbcCheckpointStoreIT {

    private static Stores stores;

    @BeforeAll
    static void setUp() {
        stores = Stores.onFreshDatabase(Counter.registry());
    }

    @AfterAll
    static void tearDown() {
        stores.close();
    }

    @Test
    void aCheckpointIsLoadedWithItsPublishTime_beforeAndAfterItIsWritten() {
        JdbcCheckpointStore store = new JdbcCheckpointStore(stores.jdbc());
        assertThat(store.load("reader", "topic.a")).isEmpty();

        store.remember("reader", "topic.a", new Checkpoint(7, 1_764_500_000_123L));
        assertThat(store.load("reader", "topic.a")).contains(new Checkpoint(7, 1_764_500_000_123L));

        store.flush();
        assertThat(new JdbcCheckpointStore(stores.jdbc()).load("reader", "topic.a"))
                .as("written, as a restarted service reads it")
                .contains(new Checkpoint(7, 1_764_500_000_123L));
    }

    @Test
    void theLastCheckpointWrittenWins_evenALowerOne() {
        JdbcCheckpointStore store = new JdbcCheckpointStore(stores.jdbc());
        store.remember("reader", "topic.b", new Checkpoint(90, 1_764_500_000_000L));
        store.flush();

        // The shared cluster started the topic's ringbuffer again: its sequences count from 0.
        store.remember("reader", "topic.b", new Checkpoint(3, 1_764_500_100_000L));
        store.flush();

        assertThat(new JdbcCheckpointStore(stores.jdbc()).load("reader", "topic.b"))
                .contains(new Checkpoint(3, 1_764_500_100_000L));
    }
}
