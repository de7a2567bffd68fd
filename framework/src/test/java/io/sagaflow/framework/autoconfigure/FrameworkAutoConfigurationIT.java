package io.sagaflow.framework.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.consumer.Deduplication;
import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.StatisticsTargets;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.hazelcast.SharedCluster;
import io.sagaflow.framework.json.DirectCreators;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.LimitReached;
import io.sagaflow.framework.sample.Counter.Opened;
import io.sagaflow.framework.test.hazelcast.HazelcastTestPropertiesInitializer;
import io.sagaflow.framework.test.postgres.PostgresTestConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * The framework as a service gets it: auto-configured on a real PostgreSQL and real Hazelcast members, an appended
 * event travels outbox → relay → shared topic → subscriber and is handled once, however often it arrives.
 */
@SpringBootTest(
        classes = FrameworkAutoConfigurationIT.SampleService.class,
        properties = {"spring.application.name=sample-service", "sagaflow.outbox.poll-interval=50ms"})
@Import(PostgresTestConfiguration.class)
@ContextConfiguration(initializers = HazelcastTestPropertiesInitializer.class)
class FrameworkAutoConfigurationIT {

    @Autowired
    EventStore store;

    @Autowired
    EventSubscriber subscriber;

    @Autowired
    ReliableTopicEventBus bus;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    @SharedCluster
    HazelcastInstance shared;

    @Autowired
    JsonMapper json;

    @Test
    void theMigratedSchemaIsAnalysedFromTheSmallerSample() {
        assertThat(jdbc.queryForList(
                        "select attname from pg_attribute where attrelid = 'es_event'::regclass and attnum > 0"
                                + " and attstattarget is distinct from " + StatisticsTargets.TARGET,
                        String.class))
                .isEmpty();
    }

    @Test
    void anAppendedEventReachesASubscriberOnceEvenWhenDeliveredTwice_andUndeclaredTypesNever() {
        List<EventEnvelope<Object>> handled = new CopyOnWriteArrayList<>();
        String stream = "counter-" + UUID.randomUUID();
        Subscription subscription = subscriber.subscribe("sample-consumer", Set.of(Opened.class), event -> {
            // A new consumer starts at the oldest message its topics hold: other tests' events come too.
            if (event.streamId().equals(stream)) {
                handled.add(event);
            }
        });
        try {
            store.append(
                    stream,
                    ExpectedVersion.noStream(),
                    // Incremented is published too, but the consumer did not declare it.
                    List.of(new Opened("c", 3), new Incremented(1)),
                    new EventMetadata(
                            "corr-42", null, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null));

            await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() == 1);
            EventEnvelope<Object> event = handled.getFirst();
            assertThat(event.payload()).isEqualTo(new Opened("c", 3));
            assertThat(event.correlationId()).isEqualTo("corr-42");
            assertThat(event.traceparent()).startsWith("00-0af7651916cd43dd8448eb211c80319c");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> jdbc.queryForObject(
                                    "select count(*) from outbox where stream_id = ?", Integer.class, stream)
                            == 0);

            // The same event again, as a relay that died before marking it would publish it.
            republish(event, "corr-42", "{\"name\":\"c\",\"limit\":3}");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> meters.counter(
                                            "sagaflow.consumer.events",
                                            "consumer",
                                            "sample-consumer",
                                            "outcome",
                                            "duplicate")
                                    .count()
                            == 1);
            assertThat(handled).hasSize(1);
            assertThat(jdbc.queryForObject(
                            "select count(*) from consumer_processed_event p join es_event e on e.event_id = p.event_id"
                                    + " where p.consumer = 'sample-consumer' and e.stream_id = ?",
                            Integer.class,
                            stream))
                    .as("an undeclared type costs no transaction")
                    .isEqualTo(1);
            subscriber.flushCheckpoints();
            assertThat(jdbc.queryForList(
                            "select distinct topic from consumer_checkpoint where consumer = 'sample-consumer'",
                            String.class))
                    .as("checkpoints are kept per topic of the consumed publisher")
                    .isNotEmpty()
                    .allMatch(topic -> topic.matches("sagaflow\\.events\\.counter\\.[0-7]"));
        } finally {
            subscription.cancel();
        }
    }

    @Test
    void aConsumerThatDeduplicatesByItselfGetsEveryDeliveryOutsideAnyTransactionAndLeavesNoRecord() {
        List<EventEnvelope<Object>> handled = new CopyOnWriteArrayList<>();
        List<Boolean> inTransaction = new CopyOnWriteArrayList<>();
        String stream = "counter-" + UUID.randomUUID();
        Subscription subscription =
                subscriber.subscribe("self-deduplicating", Set.of(Opened.class), Deduplication.BY_HANDLER, event -> {
                    // A new consumer starts at the oldest message its topics hold: other tests' events come too.
                    if (event.streamId().equals(stream)) {
                        inTransaction.add(TransactionSynchronizationManager.isActualTransactionActive());
                        handled.add(event);
                    }
                });
        try {
            store.append(
                    stream, ExpectedVersion.noStream(), List.of(new Opened("d", 1)), EventMetadata.startingFlow("c"));
            await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() == 1);
            EventEnvelope<Object> event = handled.getFirst();

            republish(event, "c", "{\"name\":\"d\",\"limit\":1}");
            await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() == 2);

            assertThat(handled.get(1).eventId()).isEqualTo(event.eventId());
            assertThat(inTransaction).containsOnly(false);
            assertThat(jdbc.queryForObject(
                            "select count(*) from consumer_processed_event where consumer = 'self-deduplicating'",
                            Integer.class))
                    .isZero();
            assertThat(meters.counter(
                                    "sagaflow.consumer.events", "consumer", "self-deduplicating", "outcome", "handled")
                            .count())
                    .isGreaterThanOrEqualTo(2);
            assertThat(meters.counter(
                                    "sagaflow.consumer.events",
                                    "consumer",
                                    "self-deduplicating",
                                    "outcome",
                                    "duplicate")
                            .count())
                    .isZero();
        } finally {
            subscription.cancel();
        }
    }

    @Test
    void
            aBusyConsumerHandlesWhatQueuedUpInOneTransaction_aFailingBatchIsRetriedEventByEvent_andTopicsAreCheckpointedPastIt()
                    throws Exception {
        jdbc.execute("create table if not exists batch_effect (stream_id text not null, txid bigint not null)");
        String prefix = "counter-batch-" + UUID.randomUUID() + "-";
        CountDownLatch gateEntered = new CountDownLatch(1);
        CountDownLatch gateOpen = new CountDownLatch(1);
        AtomicBoolean poisonFailed = new AtomicBoolean();
        Subscription subscription = subscriber.subscribe("batching-consumer", Set.of(Opened.class), event -> {
            // A new consumer starts at the oldest message its topics hold: other tests' events come too.
            if (!event.streamId().startsWith(prefix)) {
                return;
            }
            if (event.streamId().endsWith("gate")) {
                // Holds the lane, so whatever arrives meanwhile queues up behind it.
                gateEntered.countDown();
                awaitQuietly(gateOpen);
            }
            jdbc.update("insert into batch_effect (stream_id, txid) values (?, txid_current())", event.streamId());
            if (event.streamId().endsWith("poison") && poisonFailed.compareAndSet(false, true)) {
                throw new IllegalStateException("fails the first time, after writing");
            }
        });
        try {
            // Twenty events queue up behind a held one, then go through together.
            open(prefix + "gate");
            assertThat(gateEntered.await(20, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 20; i++) {
                open(prefix + "a-" + i);
            }
            awaitPublished(prefix);
            gateOpen.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> effects(prefix + "a-%") == 20);
            assertThat(jdbc.queryForObject(
                            "select count(distinct txid) from batch_effect where stream_id like ?",
                            Integer.class,
                            prefix + "a-%"))
                    .as("twenty queued events take a few transactions, not twenty")
                    .isLessThanOrEqualTo(3);

            // A batch with an event that fails once: the batch rolls back, each event is handled on its own.
            open(prefix + "poison");
            for (int i = 0; i < 5; i++) {
                open(prefix + "b-" + i);
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> effects(prefix + "b-%") == 5 && effects(prefix + "poison") == 1);
            assertThat(poisonFailed).isTrue();
            assertThat(jdbc.queryForObject(
                            "select count(*) from consumer_processed_event p join es_event e on e.event_id = p.event_id"
                                    + " where p.consumer = 'batching-consumer' and e.stream_id like ?",
                            Integer.class,
                            prefix + "%"))
                    .isEqualTo(27);

            // Every topic's position is past its last message: a restart redelivers nothing handled.
            subscriber.flushCheckpoints();
            List<Map<String, Object>> positions = jdbc.queryForList(
                    "select topic, sequence from consumer_checkpoint where consumer = 'batching-consumer'");
            assertThat(positions)
                    .isNotEmpty()
                    .allSatisfy(position -> assertThat((Long) position.get("sequence"))
                            .isEqualTo(shared.getRingbuffer(HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX
                                                    + position.get("topic"))
                                            .tailSequence()
                                    + 1));
        } finally {
            gateOpen.countDown();
            subscription.cancel();
        }
    }

    private void open(String stream) {
        store.append(stream, ExpectedVersion.noStream(), List.of(new Opened("b", 1)), EventMetadata.startingFlow("b"));
    }

    /** Waits until every row of these streams left the outbox, which it does once published (ADR 0046). */
    private void awaitPublished(String streamPrefix) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> jdbc.queryForObject(
                                "select count(*) from outbox where stream_id like ?", Integer.class, streamPrefix + "%")
                        == 0);
    }

    private int effects(String streamPattern) {
        return jdbc.queryForObject(
                "select count(*) from batch_effect where stream_id like ?", Integer.class, streamPattern);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishes {@code event} (a CounterOpened) again, as a relay that died before marking it would. */
    private void republish(EventEnvelope<Object> event, String correlationId, String payload) {
        bus.publish(List.of(new EventMessage(
                event.eventId().toString(),
                Counter.PUBLISHER,
                event.streamId(),
                event.version(),
                "CounterOpened",
                1,
                ChronoUnit.MICROS.between(Instant.EPOCH, event.occurredAt()),
                correlationId,
                null,
                null,
                null,
                payload)));
    }

    @Test
    void aConsumerOfATypeThatIsNeverPublishedIsRefused() {
        assertThatThrownBy(() -> subscriber.subscribe("sample-consumer", Set.of(LimitReached.class), event -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CounterLimitReached, which is never published");
    }

    @Test
    void everyConnectionPlansAPreparedStatementOnce() {
        // Statements binding arrays were planned again on every execution under the default (ADR 0029).
        assertThat(jdbc.queryForObject("show plan_cache_mode", String.class)).isEqualTo("force_generic_plan");
    }

    @Test
    void theServicesJsonMapperBuildsRecordsThroughTheirCreatorsDirectly() {
        // Spring Boot registers the module bean with the mapper it builds, which the event serializer uses (ADR 0060).
        assertThat(json.registeredModules()).anyMatch(DirectCreators.class::isInstance);
    }

    @SpringBootApplication
    static class SampleService {

        @Bean
        EventTypeRegistry eventTypeRegistry() {
            return Counter.registry();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
