package io.sagaflow.framework.autoconfigure;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.consumer.DeadLetters;
import io.sagaflow.framework.consumer.DeadLettersEndpoint;
import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.consumer.IdempotentConsumer;
import io.sagaflow.framework.consumer.JdbcCheckpointStore;
import io.sagaflow.framework.consumer.TopicAssignment;
import io.sagaflow.framework.consumer.TopicShares;
import io.sagaflow.framework.eventstore.AppendInterceptor;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.IdempotencyKeys;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import io.sagaflow.framework.eventstore.Outbox;
import io.sagaflow.framework.eventstore.SnapshotStore;
import io.sagaflow.framework.eventstore.StatisticsTargets;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.json.DirectCreators;
import io.sagaflow.framework.json.TextWithoutNul;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.outbox.OutboxRelay;
import io.sagaflow.framework.outbox.OutboxReplay;
import io.sagaflow.framework.outbox.OutboxSignal;
import io.sagaflow.framework.outbox.OutboxWriter;
import io.sagaflow.framework.outbox.RelayDataSource;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ProjectionRebuilder;
import io.sagaflow.framework.projection.ProjectionUpdater;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event store, outbox and idempotent consumers on the service's PostgreSQL, plus the framework's schema (added to
 * Flyway's locations, versions 1.0.x; services number theirs from 2).
 */
@AutoConfiguration(
        after = {
            DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class,
            SagaflowHazelcastAutoConfiguration.class
        })
@EnableConfigurationProperties({
    SagaflowOutboxProperties.class,
    SagaflowConsumerProperties.class,
    SagaflowIdempotencyProperties.class
})
public class SagaflowEventStoreAutoConfiguration {

    /** Where the framework's migrations live on the classpath. */
    public static final String FRAMEWORK_MIGRATIONS = "classpath:db/framework";

    @Bean
    FlywayConfigurationCustomizer sagaflowFrameworkMigrations() {
        return SagaflowEventStoreAutoConfiguration::includeFrameworkMigrations;
    }

    /**
     * Migrates, then gives the schema's columns the framework's statistics target ({@link StatisticsTargets}, ADR
     * 0043). Not a Flyway callback: Flyway runs callbacks on a connection of their own, one more than a migration holds,
     * which a service with a small pool does not have. A service with a strategy of its own applies the targets
     * itself.
     */
    @Bean
    @ConditionalOnMissingBean
    FlywayMigrationStrategy sagaflowMigrationStrategy() {
        return flyway -> {
            flyway.migrate();
            StatisticsTargets.apply(flyway.getConfiguration().getDataSource());
        };
    }

    /**
     * Adds the framework's migrations to a service's Flyway. They are numbered 1.0.x, below every service's own (V2
     * onwards), so a framework release that brings a new one adds it below versions a service database has already
     * applied: Flyway applies such a migration out of order instead of refusing to start ("resolved migration not
     * applied to database").
     */
    public static void includeFrameworkMigrations(FluentConfiguration configuration) {
        var locations = new java.util.ArrayList<>(List.of(configuration.getLocations()));
        var framework = new org.flywaydb.core.api.Location(FRAMEWORK_MIGRATIONS);
        if (!locations.contains(framework)) {
            locations.add(framework);
        }
        configuration
                .locations(locations.toArray(org.flywaydb.core.api.Location[]::new))
                .outOfOrder(true);
    }

    @Bean
    @ConditionalOnMissingBean
    Clock sagaflowClock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    EventTypeRegistry eventTypeRegistry() {
        return EventTypeRegistry.builder().build();
    }

    /** Spring Boot registers every {@code JacksonModule} bean with the JSON mapper it builds (ADR 0060). */
    @Bean
    DirectCreators sagaflowDirectCreators() {
        return new DirectCreators();
    }

    /** Text with U+0000, which PostgreSQL cannot store, is refused where JSON is read: a 400, not a failed statement. */
    @Bean
    TextWithoutNul sagaflowTextWithoutNul() {
        return new TextWithoutNul();
    }

    @Bean
    @ConditionalOnMissingBean
    EventSerializer eventSerializer(EventTypeRegistry registry, ObjectProvider<JsonMapper> jsonMapper) {
        return new EventSerializer(
                registry,
                jsonMapper.getIfAvailable(() ->
                        JsonMapper.builder().addModule(new DirectCreators()).build()));
    }

    @Bean
    TransactionTemplate sagaflowTransactionTemplate(PlatformTransactionManager transactionManager) {
        return new TransactionTemplate(transactionManager);
    }

    @Bean
    OutboxSignal outboxSignal() {
        return new OutboxSignal();
    }

    @Bean
    OutboxWriter outboxWriter(SagaflowOutboxProperties properties, OutboxSignal signal) {
        return new OutboxWriter(properties.getBuckets(), signal);
    }

    @Bean
    @ConditionalOnMissingBean
    EventStore eventStore(
            DataSource dataSource,
            TransactionTemplate sagaflowTransactionTemplate,
            EventSerializer serializer,
            List<AppendInterceptor> interceptors,
            Outbox outbox,
            Clock clock) {
        return new JdbcEventStore(
                new JdbcTemplate(dataSource), sagaflowTransactionTemplate, serializer, interceptors, outbox, clock);
    }

    @Bean
    ProjectionUpdater projectionUpdater(DataSource dataSource, List<Projection> projections) {
        return new ProjectionUpdater(projections, new JdbcTemplate(dataSource));
    }

    @Bean
    @ConditionalOnMissingBean
    ProjectionRebuilder projectionRebuilder(
            DataSource dataSource, TransactionTemplate sagaflowTransactionTemplate, EventStore eventStore) {
        return new ProjectionRebuilder(
                new JdbcTemplate(dataSource), sagaflowTransactionTemplate, (JdbcEventStore) eventStore);
    }

    @Bean
    @ConditionalOnMissingBean
    SnapshotStore snapshotStore(DataSource dataSource, EventSerializer serializer) {
        return new SnapshotStore(new JdbcTemplate(dataSource), serializer);
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotentConsumer idempotentConsumer(DataSource dataSource, TransactionTemplate sagaflowTransactionTemplate) {
        return new IdempotentConsumer(new JdbcTemplate(dataSource), sagaflowTransactionTemplate);
    }

    @Bean
    @ConditionalOnMissingBean
    EventSubscriber eventSubscriber(
            ReliableTopicEventBus bus,
            DataSource dataSource,
            IdempotentConsumer idempotent,
            DeadLetters deadLetters,
            EventSerializer serializer,
            ObjectProvider<MeterRegistry> meters,
            SagaflowConsumerProperties properties,
            @ServiceCluster HazelcastInstance member,
            Clock clock) {
        MeterRegistry registry = meters.getIfAvailable(SimpleMeterRegistry::new);
        return new EventSubscriber(
                bus,
                new JdbcCheckpointStore(new JdbcTemplate(dataSource)),
                idempotent,
                deadLetters,
                serializer,
                registry,
                properties.getMaxAttempts(),
                properties.getInitialBackoff(),
                properties.getMaxBackoff(),
                properties.getLanes(),
                properties.getBatchSize(),
                properties.isShareTopics()
                        ? new TopicShares(member, bus::publisherOf, properties.getTopicLeaseTtl(), clock, registry)
                        : TopicAssignment.everyTopic());
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetters deadLetters(DataSource dataSource) {
        return new DeadLetters(new JdbcTemplate(dataSource));
    }

    /** {@code /actuator/deadletters} where the actuator is on the class path (ADR 0100). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class DeadLettersEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DeadLettersEndpoint deadLettersEndpoint(DeadLetters deadLetters, EventSubscriber subscriber) {
            return new DeadLettersEndpoint(deadLetters, subscriber);
        }
    }

    /** For the pruning; the event store claims keys through an instance of its own. */
    @Bean
    IdempotencyKeys idempotencyKeys(DataSource dataSource) {
        return new IdempotencyKeys(new JdbcTemplate(dataSource));
    }

    @Bean
    Housekeeping sagaflowHousekeeping(
            EventSubscriber subscriber,
            IdempotentConsumer idempotent,
            SagaflowConsumerProperties properties,
            IdempotencyKeys idempotencyKeys,
            SagaflowIdempotencyProperties idempotency) {
        return new Housekeeping(subscriber, idempotent, properties, idempotencyKeys, idempotency);
    }

    /** The relay's own connection, on which the outbox is read through its indexes only (ADR 0063). */
    @Bean
    @ConditionalOnProperty(name = "sagaflow.outbox.relay-enabled", matchIfMissing = true)
    RelayDataSource outboxRelayDataSource(DataSource dataSource, ObjectProvider<MeterRegistry> meters) {
        return RelayDataSource.of(dataSource, meters.getIfAvailable());
    }

    @Bean
    @ConditionalOnProperty(name = "sagaflow.outbox.relay-enabled", matchIfMissing = true)
    OutboxRelay outboxRelay(
            RelayDataSource relayDataSource,
            DataSource dataSource,
            @ServiceCluster HazelcastInstance member,
            ReliableTopicEventBus bus,
            OutboxSignal signal,
            SagaflowOutboxProperties properties,
            ObjectProvider<MeterRegistry> meters,
            Clock clock,
            EventTypeRegistry types) {
        var settings = properties.toSettings();
        MeterRegistry registry = meters.getIfAvailable(SimpleMeterRegistry::new);
        LeaseTable leases =
                new LeaseTable(member, HazelcastNames.OUTBOX_LEASES, settings.buckets(), settings.leaseTtl(), clock);
        OutboxReplay replay = properties.getPublishers().isEmpty()
                ? null
                : new OutboxReplay(
                        new JdbcTemplate(dataSource),
                        bus,
                        properties.getPublishers(),
                        types,
                        signal,
                        settings.buckets(),
                        properties.getReplayMargin(),
                        properties.getReplayMaxAge(),
                        registry,
                        clock,
                        OutboxReplay.BATCH);
        return new OutboxRelay(
                new JdbcTemplate(relayDataSource.dataSource()),
                leases,
                member,
                bus,
                signal,
                types,
                settings,
                replay,
                registry,
                clock);
    }

    @Bean
    @ConditionalOnProperty(name = "sagaflow.outbox.relay-enabled", matchIfMissing = true)
    SmartLifecycle outboxRelayLifecycle(OutboxRelay relay) {
        return new SmartLifecycle() {
            @Override
            public void start() {
                relay.start();
            }

            @Override
            public void stop() {
                relay.stop();
            }

            @Override
            public boolean isRunning() {
                return relay.isRunning();
            }

            @Override
            public int getPhase() {
                // Stop before the web server's graceful shutdown ends and long before Hazelcast goes away.
                return SmartLifecycle.DEFAULT_PHASE - 1024;
            }
        };
    }
}
