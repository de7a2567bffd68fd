package io.sagaflow.order.fulfilment.adapter.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SagaLaneTest {

    private static final Duration LINGER = Duration.ofMillis(50);

    @Test
    void batchesThatQueuedWhileTheLaneWasBusyRunAsOneAndEachGetsItsOwnStatuses() throws Exception {
        HeldRunner runner = new HeldRunner();
        try (SagaLane lane = new SagaLane(runner, "saga-lane-test", 64, Duration.ZERO)) {
            CompletableFuture<List<Object>> first = lane.handle(deliveries("a1"));
            runner.started.await(10, TimeUnit.SECONDS);
            CompletableFuture<List<Object>> second = lane.handle(deliveries("b1", "b2"));
            CompletableFuture<List<Object>> third = lane.handle(deliveries("c1"));
            runner.release.countDown();

            assertThat(first.get(10, TimeUnit.SECONDS)).containsExactly("done a1");
            assertThat(second.get(10, TimeUnit.SECONDS)).containsExactly("done b1", "done b2");
            assertThat(third.get(10, TimeUnit.SECONDS)).containsExactly("done c1");
            assertThat(runner.batches).containsExactly(List.of("a1"), List.of("b1", "b2", "c1"));
        }
    }

    @Test
    void aMergedBatchStaysWithinTheMostMessagesAndInTheOrderSubmitted() throws Exception {
        HeldRunner runner = new HeldRunner();
        try (SagaLane lane = new SagaLane(runner, "saga-lane-test", 3, Duration.ZERO)) {
            lane.handle(deliveries("a1"));
            runner.started.await(10, TimeUnit.SECONDS);
            lane.handle(deliveries("b1", "b2"));
            lane.handle(deliveries("c1", "c2"));
            CompletableFuture<List<Object>> large = lane.handle(deliveries("d1", "d2", "d3", "d4"));
            runner.release.countDown();

            assertThat(large.get(10, TimeUnit.SECONDS)).hasSize(4);
            assertThat(runner.batches)
                    .containsExactly(
                            List.of("a1"), List.of("b1", "b2"), List.of("c1", "c2"), List.of("d1", "d2", "d3", "d4"));
        }
    }

    @Test
    void closingRunsWhatWasSubmittedAndRefusesWhatComesAfter() throws Exception {
        HeldRunner runner = new HeldRunner();
        SagaLane lane = new SagaLane(runner, "saga-lane-test", 64, Duration.ZERO);
        CompletableFuture<List<Object>> first = lane.handle(deliveries("a1"));
        runner.started.await(10, TimeUnit.SECONDS);
        CompletableFuture<List<Object>> queued = lane.handle(deliveries("b1"));
        runner.release.countDown();
        lane.close();

        assertThat(first).isCompletedWithValue(List.of("done a1"));
        assertThat(queued).isCompletedWithValue(List.of("done b1"));
        assertThatThrownBy(() -> lane.handle(deliveries("c1")).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void aBusyLingeringLaneWaitsForTheProcessorsNextBatchAndRunsBothAsOne() throws Exception {
        HeldRunner runner = new HeldRunner();
        runner.release.countDown();
        try (SagaLane lane = new SagaLane(runner, "saga-lane-test", 64, LINGER)) {
            lane.handle(deliveries("w1")).get(5, TimeUnit.SECONDS);
            // the lane is busy now: its last round began less than four lingers ago
            CompletableFuture<List<Object>> first = lane.handle(deliveries("a1"));
            Thread.sleep(5);
            CompletableFuture<List<Object>> second = lane.handle(deliveries("b1", "b2"));

            assertThat(first.get(5, TimeUnit.SECONDS)).containsExactly("done a1");
            assertThat(second.get(5, TimeUnit.SECONDS)).containsExactly("done b1", "done b2");
            assertThat(runner.batches).containsExactly(List.of("w1"), List.of("a1", "b1", "b2"));
        }
    }

    @Test
    void aQuietLaneDoesNotLinger() throws Exception {
        HeldRunner runner = new HeldRunner();
        runner.release.countDown();
        try (SagaLane lane = new SagaLane(runner, "saga-lane-test", 64, LINGER)) {
            lane.handle(deliveries("a1")).get(5, TimeUnit.SECONDS);
            Thread.sleep(LINGER.multipliedBy(5));
            CompletableFuture<List<Object>> first = lane.handle(deliveries("b1"));
            first.get(5, TimeUnit.SECONDS);
            lane.handle(deliveries("c1")).get(5, TimeUnit.SECONDS);

            assertThat(runner.batches).as("b1 ran before c1 came").startsWith(List.of("a1"), List.of("b1"));
        }
    }

    @Test
    void aLingeringLaneWaitsNeitherForAFullBatchNorForOneThatWouldNotFit() throws Exception {
        HeldRunner runner = new HeldRunner();
        runner.release.countDown();
        try (SagaLane lane = new SagaLane(runner, "saga-lane-test", 2, LINGER)) {
            assertThat(lane.handle(deliveries("a1", "a2")).get(5, TimeUnit.SECONDS))
                    .hasSize(2);
            lane.handle(deliveries("b1"));
            Thread.sleep(5);
            CompletableFuture<List<Object>> tooMany = lane.handle(deliveries("c1", "c2"));

            assertThat(tooMany.get(5, TimeUnit.SECONDS)).hasSize(2);
            assertThat(runner.batches).containsExactly(List.of("a1", "a2"), List.of("b1"), List.of("c1", "c2"));
        }
    }

    @Test
    void closingEndsALingerAndRunsWhatItHeld() throws Exception {
        HeldRunner runner = new HeldRunner();
        runner.release.countDown();
        SagaLane lane = new SagaLane(runner, "saga-lane-test", 64, LINGER);
        lane.handle(deliveries("w1")).get(5, TimeUnit.SECONDS);
        CompletableFuture<List<Object>> held = lane.handle(deliveries("a1"));
        lane.close();

        assertThat(held).isCompletedWithValue(List.of("done a1"));
    }

    @Test
    void aLaneTakesAtLeastOneMessage() {
        assertThatThrownBy(() -> new SagaLane(new HeldRunner(), "saga-lane-test", 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaLane(new HeldRunner(), "saga-lane-test", 1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SagaLane(new HeldRunner(), "saga-lane-test", 1, Duration.ofMillis(51)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<SagaRunner.Delivery> deliveries(String... ids) {
        return java.util.Arrays.stream(ids)
                .map(id -> new SagaRunner.Delivery(id, null))
                .toList();
    }

    /** Holds its first batch until released, so the test can queue batches behind it; records what it was given. */
    private static final class HeldRunner extends SagaRunner {

        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<List<String>> batches = new CopyOnWriteArrayList<>();

        HeldRunner() {
            super(null, null, null, null, null, null, new SimpleMeterRegistry());
        }

        @Override
        public List<String> handleBatch(List<Delivery> batch) {
            started.countDown();
            try {
                if (!release.await(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            batches.add(batch.stream().map(Delivery::messageId).toList());
            return batch.stream()
                    .map(delivery -> "done " + delivery.messageId())
                    .toList();
        }
    }
}
