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

    private final AtomicInteger waiting = new AtomicInteger();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void admitsUpToTheLimitAndRefusesAboveIt_asTheBacklogWasLastRead() {
        try (OrderAdmission admission = new OrderAdmission(waiting::get, 100, Duration.ofHours(1), meters)) {
            waiting.set(100);
            admission.refresh();
            admission.admit();

            waiting.set(101);
            admission.admit(); // not read again yet
            admission.refresh();
            assertThatThrownBy(admission::admit).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                assertThat(e.code()).isEqualTo("SAGA_BACKLOG");
                assertThat(e.getMessage()).contains("101").contains("100");
            });
            assertThat(meters.counter("sagaflow.order.admission.refused").count())
                    .isEqualTo(1);
            assertThat(meters.get("sagaflow.saga.backlog").gauge().value()).isEqualTo(101);

            waiting.set(0);
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void aNegativeLimitNeverRefuses_andAFailedReadKeepsTheLastBacklog() {
        try (OrderAdmission admission = new OrderAdmission(waiting::get, -1, Duration.ofHours(1), meters)) {
            waiting.set(1_000_000);
            admission.refresh();
            admission.admit();
        }
        try (OrderAdmission admission = new OrderAdmission(
                () -> {
                    throw new IllegalStateException("member shutting down");
                },
                0,
                Duration.ofHours(1),
                new SimpleMeterRegistry())) {
            admission.refresh();
            admission.admit();
        }
    }

    @Test
    void readsTheBacklogOnItsOwnThread() throws Exception {
        try (OrderAdmission admission = new OrderAdmission(waiting::get, 5, Duration.ofMillis(10), meters)) {
            waiting.set(6);
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (meters.get("sagaflow.saga.backlog").gauge().value() != 6 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThatThrownBy(admission::admit).isInstanceOf(ApiException.class);
        }
    }
}
