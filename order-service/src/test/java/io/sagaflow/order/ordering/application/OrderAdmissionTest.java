package io.sagaflow.order.ordering.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.web.ApiException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class OrderAdmissionTest {

    private static final Duration REFRESH = Duration.ofMillis(500);

    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicLong now = new AtomicLong();
    private final AtomicReference<CountDownLatch> holdReads = new AtomicReference<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void admitsUpToTheBacklogLimitAndRefusesAboveIt_asTheBacklogWasLastRead() {
        try (OrderAdmission admission = admission(100, -1)) {
            waiting.set(100);
            admission.refresh();
            admission.admit();

            waiting.set(101);
            admission.admit(); // not read again yet
            admission.refresh();
            assertRefused(admission, "SAGA_BACKLOG", "101", "100");
            assertThat(meters.counter("sagaflow.order.admission.refused").count())
                    .isEqualTo(1);
            assertThat(meters.get("sagaflow.saga.backlog").gauge().value()).isEqualTo(101);

            waiting.set(0);
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void admitsUpToTheOpenSagasLimitAndRefusesAboveIt_whereverTheirMessagesWait() {
        try (OrderAdmission admission = admission(5000, 1000)) {
            // A participant that fell behind holds the sagas' requests: the inbox is empty, the sagas are open.
            open.set(1000);
            admission.refresh();
            admission.admit();

            open.set(1001);
            admission.refresh();
            assertRefused(admission, "OPEN_SAGAS", "1001", "1000");
            assertThat(meters.counter("sagaflow.order.admission.refused").count())
                    .isEqualTo(1);
            assertThat(meters.get("sagaflow.saga.open").gauge().value()).isEqualTo(1001);

            open.set(999);
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void negativeLimitsNeverRefuse_andAFailedReadKeepsTheLastValue() {
        try (OrderAdmission admission = admission(-1, -1)) {
            waiting.set(1_000_000);
            open.set(1_000_000);
            admission.refresh();
            admission.admit();
        }
        try (OrderAdmission admission = new OrderAdmission(
                OrderAdmissionTest::memberShuttingDown,
                0,
                OrderAdmissionTest::memberShuttingDown,
                0,
                REFRESH,
                new SimpleMeterRegistry(),
                now::get)) {
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void readsNothingWhileNoOrderComes_andTheFirstOrderAfterAQuietSpellDecidesOnAFreshReading() {
        try (OrderAdmission admission = admission(5, 5)) {
            open.set(3);
            admission.admit(); // nothing read yet: read before deciding
            assertThat(reads).hasValue(1);

            open.set(7);
            now.addAndGet(Duration.ofHours(1).toNanos());
            assertThat(reads).hasValue(1); // no timer reads while no order comes

            assertRefused(admission, "OPEN_SAGAS", "7", "5");
            assertThat(reads).hasValue(2);
        }
    }

    @Test
    void aReadingOlderThanTheRefreshIsTakenAgainInTheBackground_whileTheRequestDecidesOnTheLastOne()
            throws InterruptedException {
        try (OrderAdmission admission = admission(5, 5)) {
            admission.refresh();
            open.set(7);
            now.addAndGet(REFRESH.toNanos() / 2);
            admission.admit(); // young enough: no read
            assertThat(reads).hasValue(1);

            now.addAndGet(REFRESH.toNanos() / 2);
            CountDownLatch readerMayGoOn = new CountDownLatch(1);
            holdReads.set(readerMayGoOn);
            admission.admit(); // old: admitted on the last reading while the next one is under way
            readerMayGoOn.countDown();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (reads.get() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(reads).hasValue(2);
            assertRefused(admission, "OPEN_SAGAS", "7", "5");
        }
    }

    @Test
    void aScrapeAfterAQuietSpellReadsAfresh() {
        try (OrderAdmission admission = admission(5, 5)) {
            admission.refresh();
            waiting.set(6);
            open.set(7);
            now.addAndGet(Duration.ofMinutes(1).toNanos());

            assertThat(meters.get("sagaflow.saga.backlog").gauge().value()).isEqualTo(6);
            assertThat(meters.get("sagaflow.saga.open").gauge().value()).isEqualTo(7);
        }
    }

    @Test
    void aRefreshThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new OrderAdmission(waiting::get, 1, open::get, 1, Duration.ZERO, meters, now::get))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private OrderAdmission admission(int maxBacklog, int maxOpenSagas) {
        return new OrderAdmission(
                waiting::get,
                maxBacklog,
                () -> {
                    CountDownLatch hold = holdReads.getAndSet(null);
                    if (hold != null) {
                        try {
                            hold.await(5, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    reads.incrementAndGet();
                    return open.get();
                },
                maxOpenSagas,
                REFRESH,
                meters,
                now::get);
    }

    private static void assertRefused(OrderAdmission admission, String code, String... mentioned) {
        assertThatThrownBy(admission::admit).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(mentioned);
        });
    }

    private static int memberShuttingDown() {
        throw new IllegalStateException("member shutting down");
    }
}
