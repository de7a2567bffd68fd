package io.sagaflow.order.fulfilment.adapter.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A call to the saga job's coordinator that goes unanswered is made again, a few times (ADR 0075). */
class SagaJobCallsTest {

    private static final Duration TIMEOUT = Duration.ofMillis(50);

    private final AtomicInteger calls = new AtomicInteger();
    private final CountDownLatch never = new CountDownLatch(1);

    /** Lets the calls given up on end, rather than stay parked until the test JVM exits. */
    @AfterEach
    void releaseTheUnansweredCalls() {
        never.countDown();
    }

    @Test
    void aCallThatGoesUnansweredIsMadeAgain_andItsFirstAnswerIsTaken() {
        String answer = SagaJob.answered("look-up", TIMEOUT, () -> {
            if (calls.incrementAndGet() < 3) {
                awaitNever();
            }
            return "job";
        });

        assertThat(answer).isEqualTo("job");
        assertThat(calls).hasValue(3);
    }

    @Test
    void aCallNeverAnsweredIsGivenUpAfterItsAttempts() {
        assertThatThrownBy(() -> SagaJob.answered("restart", TIMEOUT, () -> {
                    calls.incrementAndGet();
                    awaitNever();
                    return null;
                }))
                .isInstanceOf(SagaJob.Unanswered.class)
                .hasMessageContaining("restart went unanswered " + SagaJob.CALL_ATTEMPTS + " times");
        assertThat(calls).hasValue(SagaJob.CALL_ATTEMPTS);
    }

    @Test
    void aCallThatFailsIsNotMadeAgain_itsFailurePassedOn() {
        assertThatThrownBy(() -> SagaJob.answered("restart", TIMEOUT, () -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("job status is STARTING");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("job status is STARTING");
        assertThat(calls).hasValue(1);
    }

    private void awaitNever() {
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
