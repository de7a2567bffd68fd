package io.sagaflow.order.catalog.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.zaxxer.hikari.HikariDataSource;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import io.sagaflow.framework.test.postgres.TestPostgres;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies.ProductCopy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The copies' cache on two real members of one service cluster over a real PostgreSQL (ADR 0061): a copy changed
 * through either replica is what both read next, a copy not there yet is not remembered as missing, a replica that
 * dies before its eviction leaves nothing stale, and a read served from the near cache takes no operation on the
 * cluster.
 */
class CatalogCopiesIT {

    private static final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private static HikariDataSource dataSource;
    private static JdbcTemplate jdbc;
    private static TransactionTemplate transactions;
    private static ServiceClusterSpec spec;
    private static ServiceClusterCustomizer caching;
    private static HazelcastInstance firstMember;
    private static CatalogCopies first;
    private static CatalogCopies second;

    @BeforeAll
    static void startTwoReplicas() {
        dataSource = TestPostgres.newDatabase().dataSource();
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/framework", "classpath:db/migration")
                .load()
                .migrate();
        jdbc = new JdbcTemplate(dataSource);
        transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        caching = CatalogCopies.caching(jdbc, 100);
        spec = clusters.newServiceCluster();
        firstMember = clusters.startMember(spec, caching);
        HazelcastInstance secondMember = clusters.startMember(spec, caching);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> firstMember.getCluster().getMembers().size() == 2);
        first = new CatalogCopies(jdbc, firstMember);
        second = new CatalogCopies(jdbc, secondMember);
    }

    @AfterAll
    static void stop() {
        clusters.close();
        dataSource.close();
    }

    @Test
    void aStatusChangedThroughOneReplicaIsWhatBothReadNext() {
        UUID customer = UUID.randomUUID();
        transactions.executeWithoutResult(status -> first.customerStatus(customer, "ACTIVE"));
        assertThat(first.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");
        assertThat(second.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");

        transactions.executeWithoutResult(status -> second.customerStatus(customer, "SUSPENDED"));

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertThat(first.lookUp(customer, List.of()).customerStatus())
                                .contains("SUSPENDED"));
        assertThat(second.lookUp(customer, List.of()).customerStatus()).contains("SUSPENDED");
    }

    @Test
    void aChangeIsEvictedOnlyOnceItCommits() {
        UUID customer = UUID.randomUUID();
        transactions.executeWithoutResult(status -> first.customerStatus(customer, "ACTIVE"));
        assertThat(second.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");

        transactions.executeWithoutResult(status -> {
            first.customerStatus(customer, "SUSPENDED");
            // Had the change evicted the entry already, its invalidation would reach both near caches within this
            // pause, and the reads below would load the uncommitted state's predecessor and keep it past the commit.
            pause(Duration.ofMillis(300));
            assertThat(second.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");
            assertThat(first.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");
        });

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertThat(second.lookUp(customer, List.of()).customerStatus())
                                .contains("SUSPENDED"));
        assertThat(first.lookUp(customer, List.of()).customerStatus()).contains("SUSPENDED");
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aCopyNotThereYetIsFoundOnceItArrives() {
        UUID customer = UUID.randomUUID();
        UUID product = UUID.randomUUID();
        // Asked for before the events arrive, as the first orders of a new customer may be.
        for (CatalogCopies replica : List.of(first, second, first, second)) {
            CatalogCopies.Known known = replica.lookUp(customer, List.of(product));
            assertThat(known.customerStatus()).isEmpty();
            assertThat(known.products()).isEmpty();
        }

        transactions.executeWithoutResult(status -> {
            second.customerStatus(customer, "ACTIVE");
            second.productCreated(product, "SKU-1", "Lamp", new BigDecimal("12.50"));
        });

        for (CatalogCopies replica : List.of(first, second)) {
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                CatalogCopies.Known known = replica.lookUp(customer, List.of(product));
                assertThat(known.customerStatus()).contains("ACTIVE");
                assertThat(known.products())
                        .containsEntry(product, new ProductCopy(product, "SKU-1", "Lamp", new BigDecimal("12.50")));
            });
        }
    }

    @Test
    void aChangeRolledBackLeavesTheCopyAsItWas() {
        UUID product = UUID.randomUUID();
        transactions.executeWithoutResult(status -> first.productCreated(product, "SKU-2", "Desk", BigDecimal.TEN));
        assertThat(second.lookUp(UUID.randomUUID(), List.of(product)).products())
                .containsKey(product);

        transactions.executeWithoutResult(status -> {
            second.productCreated(product, "SKU-2", "Desk", BigDecimal.ONE);
            status.setRollbackOnly();
        });

        assertThat(first.lookUp(UUID.randomUUID(), List.of(product))
                        .products()
                        .get(product)
                        .price())
                .isEqualByComparingTo(BigDecimal.TEN);
        assertThat(second.lookUp(UUID.randomUUID(), List.of(product))
                        .products()
                        .get(product)
                        .price())
                .isEqualByComparingTo(BigDecimal.TEN);
    }

    @Test
    void aReplicaThatDiesBetweenTheCommitAndTheEvictionLeavesNothingStale() {
        HazelcastInstance thirdMember = clusters.startMember(spec, caching);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firstMember.getCluster().getMembers().size() == 3
                        && firstMember.getPartitionService().isClusterSafe());
        CatalogCopies third = new CatalogCopies(jdbc, thirdMember);
        // Held by a member that survives: an entry lost with its member would be loaded again anyway.
        UUID customer = Stream.generate(UUID::randomUUID)
                .filter(id -> !firstMember
                        .getPartitionService()
                        .getPartition(id)
                        .getOwner()
                        .getUuid()
                        .equals(thirdMember.getCluster().getLocalMember().getUuid()))
                .findFirst()
                .orElseThrow();
        transactions.executeWithoutResult(status -> first.customerStatus(customer, "ACTIVE"));
        for (CatalogCopies replica : List.of(first, second, third)) {
            assertThat(replica.lookUp(customer, List.of()).customerStatus()).contains("ACTIVE");
        }

        // The third replica commits a suspension and dies before its commit's eviction.
        jdbc.update("update customer_copy set status = 'SUSPENDED' where customer_id = ?", customer);
        clusters.kill(thirdMember);

        for (CatalogCopies replica : List.of(first, second)) {
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () -> assertThat(replica.lookUp(customer, List.of()).customerStatus())
                                    .contains("SUSPENDED"));
        }
    }

    @Test
    void aCachedCopyIsReadWithoutAnOperationOnTheCluster() {
        UUID customer = UUID.randomUUID();
        UUID product = UUID.randomUUID();
        transactions.executeWithoutResult(status -> {
            first.customerStatus(customer, "ACTIVE");
            first.productCreated(product, "SKU-3", "Chair", BigDecimal.ONE);
        });
        first.lookUp(customer, List.of(product));
        IMap<UUID, String> customers = firstMember.getMap(CatalogCopies.CUSTOMERS);
        IMap<UUID, ProductCopy> products = firstMember.getMap(CatalogCopies.PRODUCTS);
        long customerHits = customers.getLocalMapStats().getNearCacheStats().getHits();
        long productHits = products.getLocalMapStats().getNearCacheStats().getHits();

        for (int i = 0; i < 10; i++) {
            first.lookUp(customer, List.of(product));
        }

        assertThat(customers.getLocalMapStats().getNearCacheStats().getHits()).isEqualTo(customerHits + 10);
        assertThat(products.getLocalMapStats().getNearCacheStats().getHits()).isEqualTo(productHits + 10);
    }
}
