package io.sagaflow.inventory.product;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.inventory.InventoryHttp;
import io.sagaflow.inventory.product.application.LockedProduct;
import io.sagaflow.inventory.product.application.StockLedger;
import io.sagaflow.inventory.product.domain.ReservationChannel;
import io.sagaflow.inventory.product.domain.ReserveStock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A product lock reads the reservations in a second statement sent with the locking one: it must see what the
 * transaction it waited for committed, not what its snapshot held when it started waiting.
 */
@SagaflowIntegrationTest
class ProductLockIT {

    @Value("${local.server.port}")
    int port;

    @Autowired
    StockLedger ledger;

    @Autowired
    PlatformTransactionManager transactionManager;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aBatchLockThatWaitedSeesTheReservationTheHolderCommitted() throws Exception {
        assertSeenAfterWaiting(
                (product, order) -> ledger.lock(Set.of(product), Set.of(order)).get(product));
    }

    @Test
    void anApiLockThatWaitedSeesTheReservationTheHolderCommitted() throws Exception {
        assertSeenAfterWaiting((product, order) -> {
            var locked = ledger.lockWithViews(Set.of(product), Set.of(order)).get(product);
            assertThat(locked.view().quantityReserved()).isEqualTo(3);
            return locked.product();
        });
    }

    private void assertSeenAfterWaiting(LockCall lock) throws Exception {
        UUID product = UUID.fromString(new InventoryHttp(port).createProduct("SKU-" + UUID.randomUUID(), 10));
        UUID order = UUID.randomUUID();
        TransactionTemplate transactions = new TransactionTemplate(transactionManager);
        CountDownLatch reserved = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> holder = threads.submit(() -> transactions.executeWithoutResult(status -> {
                LockedProduct held = ledger.lock(Set.of(product), Set.of(order)).get(product);
                ledger.execute(
                        held,
                        new ReserveStock(order, 3, ReservationChannel.API),
                        EventMetadata.startingFlow("product-lock-it"));
                reserved.countDown();
                awaitQuietly(commit);
            }));
            assertThat(reserved.await(10, TimeUnit.SECONDS)).isTrue();
            Future<LockedProduct> waiter =
                    threads.submit(() -> transactions.execute(status -> lock.apply(product, order)));
            awaitABackendWaitingForALock();
            commit.countDown();
            holder.get(10, TimeUnit.SECONDS);

            LockedProduct seen = waiter.get(10, TimeUnit.SECONDS);
            assertThat(seen.state().reservedFor(order)).isEqualTo(3);
            assertThat(seen.state().quantityReserved()).isEqualTo(3);
            assertThat(seen.version()).isEqualTo(2);
        } finally {
            commit.countDown();
            threads.shutdownNow();
        }
    }

    private void awaitABackendWaitingForALock() throws InterruptedException {
        Instant giveUp = Instant.now().plus(Duration.ofSeconds(10));
        while (jdbc.queryForObject(
                        "select count(*) from pg_stat_activity where datname = current_database()"
                                + " and wait_event_type = 'Lock'",
                        Integer.class)
                == 0) {
            assertThat(Instant.now()).as("a lock waiter").isBefore(giveUp);
            Thread.sleep(10);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Locks the product for the order, in the caller's transaction. */
    @FunctionalInterface
    private interface LockCall {
        LockedProduct apply(UUID product, UUID order);
    }
}
