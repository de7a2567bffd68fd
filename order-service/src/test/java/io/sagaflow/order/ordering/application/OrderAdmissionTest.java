package io.sagaflow.order.ordering.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.web.ApiException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class OrderAdmissionTest {

    private static final Duration NOT_ON_ITS_OWN = Duration.ofHours(1);

    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void admitsUpToTheBacklogLimitAndRefusesAboveIt_asTheBacklogWasLastRead() {
        try (OrderAdmission admission = admission(100, -1, NOT_ON_ITS_OWN)) {
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
        try (OrderAdmission admission = admission(5000, 1000, NOT_ON_ITS_OWN)) {
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
        try (OrderAdmission admission = admission(-1, -1, NOT_ON_ITS_OWN)) {
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
                NOT_ON_ITS_OWN,
                new SimpleMeterRegistry())) {
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void readsBothOnItsOwnThread() throws Exception {
        try (OrderAdmission admission = admission(5, 5, Duration.ofMillis(10))) {
            waiting.set(6);
            open.set(7);
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while ((meters.get("sagaflow.saga.backlog").gauge().value() != 6
                            || meters.get("sagaflow.saga.open").gauge().value() != 7)
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertRefused(admission, "OPEN_SAGAS", "7", "5");
        }
    }

    private OrderAdmission admission(int maxBacklog, int maxOpenSagas, Duration refresh) {
        return new OrderAdmission(waiting::get, maxBacklog, open::get, maxOpenSagas, refresh, meters);
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
