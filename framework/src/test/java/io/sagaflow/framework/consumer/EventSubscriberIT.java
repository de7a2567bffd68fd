package io.sagaflow.framework.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.sample.Counter;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.postgres.TestDatabase;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer whose database goes away loses no event, however long it is away (ADR 0099), and one that gives up on a
 * message keeps it and handles it at its next start once the cause is fixed (ADR 0100): on a real PostgreSQL that
 * refuses the consumer's connections for a while, with a real shared cluster. Its attempts would give up on a message
 * within 30 ms.
 */
class EventSubscriberIT {

    private static final String CONSUMER = "test.outage";
    private static final int MAX_ATTEMPTS = 2;
    private static final Duration INITIAL_BACKOFF = Duration.ofMillis(10);

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TestDatabase database;
    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private ReliableTopicEventBus bus;
    private Subscription subscription;
    private DeadLetters deadLetters;

    @BeforeEach
    void setUp() {
        database = TestPostgres.newDatabase();
        database.migratedDataSource().close();
        // Asking the pool for a connection while the database refuses them fails after this, not after 30 s.
        dataSource = database.dataSource(Duration.ofMillis(500));
        jdbc = new JdbcTemplate(dataSource);
        deadLetters = new DeadLetters(jdbc);
        jdbc.execute("create table handled (event_id uuid primary key)");
        SagaflowHazelcastProperties.Shared shared = clusters.newSharedCluster();
        HazelcastInstance member = clusters.startSharedMember(shared);
        bus = new ReliableTopicEventBus(member, shared.getTopic().getPrefix(), 1, Duration.ofSeconds(10));
    }

    @AfterEach
    void tearDown() {
        if (subscription != null) {
            subscription.cancel();
        }
        database.admitConnections(true);
        clusters.close();
        dataSource.close();
    }

    @Test
    void aConsumerWhoseDatabaseIsAwayForLongerThanItsAttemptsLast_handlesEveryEventOnceItIsBack() {
        subscription = subscriber()
                .subscribe(
                        CONSUMER,
                        Set.of(Incremented.class),
                        event -> jdbc.update("insert into handled (event_id) values (?)", event.eventId()));
        Set<UUID> before = publish(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> handled().containsAll(before));

        database.admitConnections(false);
        Set<UUID> during = publish(5);
        // Far longer than two attempts 10 ms apart: each of them would have been given up on by now.
        await().atMost(Duration.ofSeconds(30)).until(() -> retries("transient") >= 10);
        database.admitConnections(true);

        // The pool may still fail a request or two while it connects again.
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> handled().containsAll(during));
        assertThat(handled()).hasSize(8);
        assertThat(events("failed")).isZero();
        assertThat(retries("other")).isZero();
    }

    @Test
    void aMessageThatFailsForAnotherReason_isGivenUpOnAndKept_theNextOnesAreHandled_andTheNextStartHandlesIt() {
        UUID poison = UUID.randomUUID();
        AtomicBoolean fixed = new AtomicBoolean();
        EventHandler handler = event -> {
            if (event.eventId().equals(poison) && !fixed.get()) {
                throw new IllegalArgumentException("cannot handle " + poison);
            }
            jdbc.update("insert into handled (event_id) values (?)", event.eventId());
        };
        subscription = subscriber().subscribe(CONSUMER, Set.of(Incremented.class), handler);
        bus.publish(List.of(message(poison)));
        Set<UUID> after = publish(3);

        await().atMost(Duration.ofSeconds(30)).until(() -> handled().containsAll(after));
        assertThat(handled()).doesNotContain(poison);
        assertThat(events("failed")).isEqualTo(1);
        assertThat(retries("other")).isEqualTo(MAX_ATTEMPTS - 1);
        assertThat(retries("transient")).isZero();
        assertThat(deadLetters.of(CONSUMER)).singleElement().satisfies(letter -> {
            assertThat(letter.message().eventId()).isEqualTo(poison.toString());
            assertThat(letter.message().payload()).isEqualTo("{\"by\":1}");
            assertThat(letter.attempts()).isEqualTo(MAX_ATTEMPTS);
            assertThat(letter.failure()).contains("cannot handle " + poison);
        });

        // The cause is fixed and the service started again: the consumer tries what it kept, and forgets it.
        subscription.cancel();
        fixed.set(true);
        subscription = subscriber().subscribe(CONSUMER, Set.of(Incremented.class), handler);

        await().atMost(Duration.ofSeconds(30)).until(() -> handled().contains(poison));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> deadLetters.of(CONSUMER).isEmpty());
        assertThat(handled()).hasSize(4);
        assertThat(events("redriven")).isEqualTo(1);
    }

    @Test
    void aMessageGivenUpOnAsTheDatabaseGoesAway_isKeptOnceItIsBack() {
        UUID poison = UUID.randomUUID();
        AtomicInteger calls = new AtomicInteger();
        // Handled without a transaction of the subscriber's, so the last attempt's failure is the handler's own.
        subscription = subscriber().subscribe(CONSUMER, Set.of(Incremented.class), Deduplication.BY_HANDLER, event -> {
            if (event.eventId().equals(poison)) {
                if (calls.incrementAndGet() == MAX_ATTEMPTS) {
                    database.admitConnections(false); // the database goes away as the consumer gives up
                }
                throw new IllegalArgumentException("cannot handle " + poison);
            }
        });
        bus.publish(List.of(message(poison)));

        await().atMost(Duration.ofSeconds(30)).until(() -> retries("transient") >= 3);
        assertThat(calls).hasValue(MAX_ATTEMPTS);
        database.admitConnections(true);

        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> !deadLetters.of(CONSUMER).isEmpty());
        assertThat(deadLetters.of(CONSUMER)).singleElement().satisfies(letter -> {
            assertThat(letter.message().eventId()).isEqualTo(poison.toString());
            assertThat(letter.attempts()).isEqualTo(MAX_ATTEMPTS);
        });
        assertThat(calls).hasValue(MAX_ATTEMPTS);
    }

    @Test
    void aRedriveAskedForWhileTheDatabaseIsAway_triesTheLettersOnceItIsBack() {
        UUID kept = UUID.randomUUID();
        deadLetters.park(CONSUMER, message(kept), new IllegalArgumentException("a bug"), MAX_ATTEMPTS);
        AtomicBoolean fixed = new AtomicBoolean();
        EventSubscriber subscriber = subscriber();
        subscription = subscriber.subscribe(CONSUMER, Set.of(Incremented.class), event -> {
            if (!fixed.get()) {
                throw new IllegalArgumentException("still a bug");
            }
            jdbc.update("insert into handled (event_id) values (?)", event.eventId());
        });
        // The start's own redrive is done with the letter: it failed again and was kept again.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> deadLetters.of(CONSUMER).getFirst().attempts() == 2 * MAX_ATTEMPTS);

        fixed.set(true);
        database.admitConnections(false);
        assertThat(subscriber.redrive()).containsExactly(CONSUMER);
        // The consumer cannot read its letters yet, as at a start while the database is away.
        await().atMost(Duration.ofSeconds(30)).until(() -> retries("transient") >= 3);
        database.admitConnections(true);

        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> handled().contains(kept));
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.counts().isEmpty());
        assertThat(events("redriven")).isEqualTo(1);
    }

    @Test
    void theEndpointListsWhatTheConsumersGaveUpOn_andHasThemTriedAgainNow() {
        UUID poison = UUID.randomUUID();
        AtomicBoolean fixed = new AtomicBoolean();
        EventSubscriber subscriber = subscriber();
        DeadLettersEndpoint endpoint = new DeadLettersEndpoint(deadLetters, subscriber);
        subscription = subscriber.subscribe(CONSUMER, Set.of(Incremented.class), event -> {
            if (event.eventId().equals(poison) && !fixed.get()) {
                throw new IllegalArgumentException("cannot handle " + poison);
            }
            jdbc.update("insert into handled (event_id) values (?)", event.eventId());
        });
        bus.publish(List.of(message(poison)));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> !deadLetters.of(CONSUMER).isEmpty());
        assertThat(endpoint.deadLetters().get("counts")).isEqualTo(Map.of(CONSUMER, 1));
        // The gauge counts again off the reading thread: a read after the letter was kept has it counted.
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetterGauge() == 1.0);
        assertThat(endpoint.deadLetters().get("oldest"))
                .asInstanceOf(InstanceOfAssertFactories.list(DeadLetters.Summary.class))
                .singleElement()
                .satisfies(letter -> {
                    assertThat(letter.eventId()).isEqualTo(poison.toString());
                    assertThat(letter.type()).isEqualTo("CounterIncremented");
                    assertThat(letter.failure()).contains("cannot handle");
                    assertThat(letter.failedAt()).isNotNull();
                });

        // Fixed without a restart: the operator has the running consumers try again.
        fixed.set(true);
        assertThat(endpoint.redrive()).isEqualTo(Map.of("redriving", Set.of(CONSUMER)));

        await().atMost(Duration.ofSeconds(30)).until(() -> handled().contains(poison));
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.counts().isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetterGauge() == 0.0);
    }

    private double deadLetterGauge() {
        return meters.get("sagaflow.consumer.dead.letters")
                .tag("consumer", CONSUMER)
                .gauge()
                .value();
    }

    private EventSubscriber subscriber() {
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        return new EventSubscriber(
                bus,
                new JdbcCheckpointStore(jdbc),
                new IdempotentConsumer(jdbc, transactions),
                deadLetters,
                new EventSerializer(Counter.registry(), new JsonMapper()),
                meters,
                MAX_ATTEMPTS,
                INITIAL_BACKOFF,
                Duration.ofMillis(200),
                1,
                64,
                TopicAssignment.everyTopic());
    }

    /** Publishes {@code count} increments, each of a stream of its own; returns their event ids. */
    private Set<UUID> publish(int count) {
        List<EventMessage> messages = new ArrayList<>(count);
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < count; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            messages.add(message(id));
        }
        bus.publish(messages);
        return ids;
    }

    private static EventMessage message(UUID eventId) {
        return new EventMessage(
                eventId.toString(),
                Counter.PUBLISHER,
                "counter-" + eventId,
                1,
                "CounterIncremented",
                2,
                0,
                "corr",
                null,
                null,
                null,
                "{\"by\":1}");
    }

    private Set<UUID> handled() {
        return new HashSet<>(jdbc.queryForList("select event_id from handled", UUID.class));
    }

    private double events(String outcome) {
        return meters.counter("sagaflow.consumer.events", "consumer", CONSUMER, "outcome", outcome)
                .count();
    }

    private double retries(String failure) {
        return meters.counter("sagaflow.consumer.retries", "consumer", CONSUMER, "failure", failure)
                .count();
    }
}
