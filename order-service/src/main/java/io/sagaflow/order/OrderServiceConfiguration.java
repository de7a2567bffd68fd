package io.sagaflow.order;

import com.hazelcast.config.EventJournalConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.properties.ClusterProperty;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.account.contracts.AccountContracts;
import io.sagaflow.framework.consumer.Deduplication;
import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.consumer.SubscriptionLifecycle;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.GroupCommit;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies;
import io.sagaflow.order.catalog.application.CatalogSubscription;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.fulfilment.adapter.hazelcast.HazelcastSagaDeadlines;
import io.sagaflow.order.fulfilment.adapter.hazelcast.HazelcastSagaInbox;
import io.sagaflow.order.fulfilment.adapter.hazelcast.SagaInboxSerializers;
import io.sagaflow.order.fulfilment.adapter.hazelcast.SagaJob;
import io.sagaflow.order.fulfilment.adapter.hazelcast.SagaLifecycle;
import io.sagaflow.order.fulfilment.adapter.hazelcast.SagaNames;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaViewProjection;
import io.sagaflow.order.fulfilment.adapter.web.AuditController;
import io.sagaflow.order.fulfilment.application.SagaFeed;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.domain.OrderFulfilmentSaga;
import io.sagaflow.order.fulfilment.domain.SagaFact;
import io.sagaflow.order.ordering.adapter.postgres.OrderQueries;
import io.sagaflow.order.ordering.adapter.postgres.OrderViewProjection;
import io.sagaflow.order.ordering.application.OrderAdmission;
import io.sagaflow.order.ordering.application.OrderPlacement;
import io.sagaflow.order.ordering.application.OrderView;
import io.sagaflow.order.ordering.domain.OrderCancellationRequested;
import io.sagaflow.order.ordering.domain.OrderPricing;
import io.sagaflow.payment.contracts.PaymentContracts;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Wires the order service: its event types, views, the saga's Hazelcast structures, job and feed. */
@Configuration(proxyBeanMethods = false)
class OrderServiceConfiguration {

    /**
     * The topics of the order's cancellation requests, which only this service's sagas read: on topics of their own,
     * the sagas receive none of the order's other events (ADR 0036).
     */
    static final String CANCELLATION_REQUESTS = "order-cancellation";

    /** The shortest job scan period Hazelcast takes; it raises a shorter one to this. */
    static final long MIN_JOB_SCAN_PERIOD_MILLIS = 100;

    @Bean
    EventTypeRegistry eventTypeRegistry() {
        EventTypeRegistry.Builder types = EventTypeRegistry.builder();
        OrderContracts.register(types);
        InventoryContracts.register(types);
        PaymentContracts.register(types);
        AccountContracts.register(types);
        return types.registerPublished(
                        CANCELLATION_REQUESTS, "OrderCancellationRequested", OrderCancellationRequested.class)
                .register("StockReservationConfirmed", SagaFact.StockReservationConfirmed.class)
                .register("StockReservationRejected", SagaFact.StockReservationRejected.class)
                .register("PaymentCaptureConfirmed", SagaFact.PaymentCaptureConfirmed.class)
                .register("PaymentRejected", SagaFact.PaymentRejected.class)
                .register("CompensationStarted", SagaFact.CompensationStarted.class)
                .register("StockReleaseConfirmed", SagaFact.StockReleaseConfirmed.class)
                .register("RefundConfirmed", SagaFact.RefundConfirmed.class)
                .register("CompensationRetried", SagaFact.CompensationRetried.class)
                .register("CompensationFailed", SagaFact.CompensationFailed.class)
                .register("SagaDiscarded", SagaFact.SagaDiscarded.class)
                .build();
    }

    /**
     * The saga's maps: the inbox journals every message; inbox and timers never evict (they drain themselves). Inbox
     * keys, entries and the job's items travel in compact form (ADR 0020).
     */
    @Bean
    ServiceClusterCustomizer sagaStructures(
            @Value("${sagaflow.order.saga.inbox-journal-capacity:25000}") int journal,
            @Value("${sagaflow.order.saga.deadline-sweep:1s}") Duration deadlineSweep) {
        if (deadlineSweep.toMillis() % 1_000 != 0 || deadlineSweep.toSeconds() < 1) {
            throw new IllegalArgumentException(
                    "sagaflow.order.saga.deadline-sweep must be whole seconds, at least 1s, was " + deadlineSweep);
        }
        return config -> {
            config.getMapConfig(SagaNames.INBOX)
                    .setBackupCount(1)
                    .setTimeToLiveSeconds(3_600)
                    .setEventJournalConfig(new EventJournalConfig()
                            .setEnabled(true)
                            .setCapacity(journal)
                            .setTimeToLiveSeconds(3_600))
                    .getEvictionConfig()
                    .setEvictionPolicy(EvictionPolicy.NONE);
            config.getMapConfig(SagaNames.DEADLINES)
                    .setBackupCount(1)
                    .getEvictionConfig()
                    .setEvictionPolicy(EvictionPolicy.NONE);
            // Deadlines fire from expiry: look for expired entries every deadline-sweep (1 s), across all of them.
            config.setProperty(
                    "hazelcast.internal.map.expiration.task.period.seconds", Long.toString(deadlineSweep.toSeconds()));
            config.setProperty("hazelcast.internal.map.expiration.cleanup.percentage", "100");
            SagaInboxSerializers.register(config);
        };
    }

    /**
     * How often the order cluster's master looks for jobs to start (Hazelcast's 5 s by default). A master that takes
     * over from one that died starts the saga job only when it looks, so sagas wait up to this long more after the
     * loss of the master (ADR 0072).
     */
    @Bean
    ServiceClusterCustomizer sagaJobTakeover(@Value("${sagaflow.order.saga.job-scan-period:1s}") Duration scanPeriod) {
        if (scanPeriod.toMillis() < MIN_JOB_SCAN_PERIOD_MILLIS) {
            throw new IllegalArgumentException("sagaflow.order.saga.job-scan-period must be at least "
                    + MIN_JOB_SCAN_PERIOD_MILLIS + " ms, was " + scanPeriod);
        }
        return config ->
                config.setProperty(ClusterProperty.JOB_SCAN_PERIOD.getName(), Long.toString(scanPeriod.toMillis()));
    }

    /**
     * How long the order cluster's master waits after a member joins before it restarts the saga job to include it
     * (Jet's scale-up delay, 10 s by default). A joining replica restarts the job itself once its runner is registered
     * ({@link SagaJob#start}); Jet's rescale is only the fallback, and must not come while the replica's application is
     * still starting, or every saga waits for it (ADR 0075).
     */
    @Bean
    ServiceClusterCustomizer sagaJobScaleUp(@Value("${sagaflow.order.saga.scale-up-delay:5m}") Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("sagaflow.order.saga.scale-up-delay must not be negative, was " + delay);
        }
        return config -> config.getJetConfig().setScaleUpDelayMillis(delay.toMillis());
    }

    @Bean
    ViewCache<OrderView> orderViewCache(
            @ServiceCluster HazelcastInstance member,
            JsonMapper json,
            @Value("${sagaflow.order.poll.max-waiting:256}") int maxWaiting) {
        return new ViewCache<>(member, SagaNames.ORDER_VIEWS, json, OrderView.class, maxWaiting);
    }

    @Bean
    ViewCache<SagaView> sagaViewCache(@ServiceCluster HazelcastInstance member, JsonMapper json) {
        return new ViewCache<>(member, SagaNames.SAGA_VIEWS, json, SagaView.class);
    }

    @Bean
    OrderQueries orderQueries(JdbcTemplate jdbc, JsonMapper json) {
        return new OrderQueries(jdbc, json);
    }

    @Bean
    SagaQueries sagaQueries(JdbcTemplate jdbc, JsonMapper json) {
        return new SagaQueries(jdbc, json);
    }

    @Bean
    ServiceClusterCustomizer orderViewLoading(
            OrderQueries orders,
            SagaQueries sagas,
            JsonMapper json,
            @Value("${sagaflow.order.view-cache-size:20000}") int size,
            @Value("${sagaflow.order.view-cache-ttl:2m}") Duration ttl) {
        MapLimits limits = new MapLimits(size, ttl, 1);
        ServiceClusterCustomizer orderViews = ViewCache.loadThrough(
                SagaNames.ORDER_VIEWS, limits, json, id -> orders.find(java.util.UUID.fromString(id)));
        ServiceClusterCustomizer sagaViews = ViewCache.loadThrough(
                SagaNames.SAGA_VIEWS, limits, json, id -> sagas.find(java.util.UUID.fromString(id)));
        return config -> {
            orderViews.customize(config);
            sagaViews.customize(config);
        };
    }

    /** The caches of the customer and product copies every placement looks up (ADR 0061). */
    @Bean
    ServiceClusterCustomizer catalogCaching(
            JdbcTemplate jdbc, @Value("${sagaflow.order.catalog-cache-size:10000}") int size) {
        return CatalogCopies.caching(jdbc, size);
    }

    /** Sagas waiting in quarantine for an operator, counted at each scrape. */
    @Bean
    io.micrometer.core.instrument.Gauge quarantinedSagas(MeterRegistry meters, SagaQueries sagas) {
        return io.micrometer.core.instrument.Gauge.builder("sagaflow.saga.quarantined", sagas, SagaQueries::quarantined)
                .description("Sagas in COMPENSATION_FAILED, waiting for an operator")
                .register(meters);
    }

    @Bean
    OrderViewProjection orderViewProjection(JsonMapper json, ViewCache<OrderView> cache) {
        return new OrderViewProjection(json, cache);
    }

    @Bean
    SagaViewProjection sagaViewProjection(JsonMapper json, ViewCache<SagaView> cache) {
        return new SagaViewProjection(json, cache);
    }

    @Bean
    OrderPlacement orderPlacement(
            EventStore events,
            CatalogCopies catalog,
            Clock clock,
            @Value("${sagaflow.order.tax-rate:0.08}") BigDecimal taxRate,
            @Value("${sagaflow.order.saga.timeout:30s}") Duration sagaTimeout,
            @Value("${sagaflow.order.placement.max-group:64}") int maxGroup,
            OrderAdmission admission,
            HazelcastSagaDeadlines deadlines,
            SagaRunner runner,
            MeterRegistry meters) {
        // Orders placed at the same time commit together (ADR 0024).
        DistributionSummary groups = DistributionSummary.builder("sagaflow.order.placement.group")
                .description("Orders committed together in one transaction")
                .register(meters);
        return new OrderPlacement(
                new GroupCommit(events, maxGroup, groups::record),
                catalog,
                new OrderPricing(taxRate),
                sagaTimeout,
                clock,
                admission,
                new OrderPlacement.SagaStart() {
                    @Override
                    public void arm(UUID orderId, Instant deadline) {
                        deadlines.arm(orderId, deadline);
                    }

                    @Override
                    public void placed(EventEnvelope<Object> placed) {
                        runner.placed(placed);
                    }
                });
    }

    /** Refuses new orders while too many sagas are open or saga messages wait on this member (ADR 0023, 0047). */
    @Bean
    OrderAdmission orderAdmission(
            HazelcastSagaInbox inbox,
            HazelcastSagaDeadlines deadlines,
            MeterRegistry meters,
            @Value("${sagaflow.order.admission.max-saga-backlog:5000}") int maxBacklog,
            @Value("${sagaflow.order.admission.max-open-sagas:1000}") int maxOpenSagas,
            @Value("${sagaflow.order.admission.refresh:500ms}") Duration refresh) {
        return new OrderAdmission(inbox::backlog, maxBacklog, deadlines::open, maxOpenSagas, refresh, meters);
    }

    @Bean
    OrderFulfilmentSaga orderFulfilmentSaga(
            @Value("${sagaflow.order.saga.compensation-timeout:15s}") Duration compensationTimeout,
            @Value("${sagaflow.order.saga.max-compensation-attempts:3}") int attempts) {
        return new OrderFulfilmentSaga(compensationTimeout, attempts);
    }

    @Bean
    HazelcastSagaInbox sagaInbox(@ServiceCluster HazelcastInstance member) {
        return new HazelcastSagaInbox(member);
    }

    @Bean
    HazelcastSagaDeadlines sagaDeadlines(@ServiceCluster HazelcastInstance member, HazelcastSagaInbox inbox) {
        return new HazelcastSagaDeadlines(member, inbox);
    }

    @Bean
    SagaRunner sagaRunner(
            EventStore events,
            TransactionTemplate sagaflowTransactionTemplate,
            OrderFulfilmentSaga saga,
            HazelcastSagaDeadlines deadlines,
            HazelcastSagaInbox inbox,
            SagaQueries sagas,
            Clock clock,
            MeterRegistry meters) {
        return new SagaRunner(events, sagaflowTransactionTemplate, saga, deadlines, inbox, sagas, clock, meters);
    }

    @Bean
    SagaLifecycle sagaLifecycle(
            @ServiceCluster HazelcastInstance member,
            SagaRunner runner,
            HazelcastSagaDeadlines deadlines,
            SagaQueries sagas,
            @Value("${sagaflow.order.saga.parallelism:4}") int parallelism,
            @Value("${sagaflow.order.saga.batch-size:64}") int batchSize,
            @Value("${sagaflow.order.saga.snapshot-interval:5s}") Duration snapshotInterval,
            @Value("${sagaflow.order.saga.journal-readers:0}") int journalReaders,
            @Value("${sagaflow.order.saga.job-call-timeout:10s}") Duration callTimeout) {
        return new SagaLifecycle(
                member,
                runner,
                deadlines,
                sagas,
                new SagaJob.Settings(parallelism, batchSize, snapshotInterval, journalReaders, callTimeout));
    }

    @Bean
    SagaFeed sagaFeed(HazelcastSagaInbox inbox) {
        return new SagaFeed(inbox);
    }

    /**
     * Feeds the saga once its job runs (phase 0), stops before it. Without processed-event records: the inbox and the
     * saga deduplicate (ADR 0020).
     */
    @Bean
    SubscriptionLifecycle sagaFeedSubscription(EventSubscriber subscriber, SagaFeed feed) {
        return new SubscriptionLifecycle(
                subscriber,
                SagaFeed.CONSUMER,
                SagaFeed.EVENT_TYPES,
                Deduplication.BY_HANDLER,
                feed,
                SagaLifecycle.PHASE + 1);
    }

    @Bean
    SubscriptionLifecycle catalogSubscriptionLifecycle(EventSubscriber subscriber, CatalogSubscription catalog) {
        return new SubscriptionLifecycle(
                subscriber, CatalogSubscription.CONSUMER, CatalogSubscription.EVENT_TYPES, catalog, 0);
    }

    @Bean
    AuditController auditController(
            JdbcTemplate jdbc,
            JsonMapper json,
            SagaQueries sagas,
            @Value("${sagaflow.order.audit.inventory-url:http://127.0.0.1:8082}") String inventoryUrl,
            @Value("${sagaflow.order.audit.payment-url:http://127.0.0.1:8084}") String paymentUrl,
            @Value("${sagaflow.order.audit.page-size:1000}") int pageSize) {
        return new AuditController(jdbc, json, sagas, inventoryUrl, paymentUrl, pageSize);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
