package io.sagaflow.order.fulfilment.adapter.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A lane that starts before its member's runner is registered (ADR 0075). */
class SagaLaneTest {

    private final List<String> handled = new CopyOnWriteArrayList<>();

    @Test
    void batchesHandedBeforeTheRunnerCameRunInTheirOrderOnceItComes() throws Exception {
        CompletableFuture<SagaRunner> runner = new CompletableFuture<>();
        try (SagaLane lane = new SagaLane(runner, "lane-0")) {
            List<CompletableFuture<List<Object>>> results =
                    List.of(lane.handle(batch("m1", "m2")), lane.handle(batch("m3")), lane.handle(batch("m4", "m5")));
            Thread.sleep(100);
            assertThat(handled).isEmpty();

            runner.complete(new RecordingRunner());

            for (CompletableFuture<List<Object>> result : results) {
                result.get(5, TimeUnit.SECONDS);
            }
            assertThat(handled).containsExactly("m1", "m2", "m3", "m4", "m5");
        }
    }

    @Test
    void aLaneWhoseRunnerNeverCameClosesAtOnce_itsBatchesLeftToTheNextExecution() {
        SagaLane lane = new SagaLane(new CompletableFuture<>(), "lane-0");
        CompletableFuture<List<Object>> result = lane.handle(batch("m1"));

        Instant start = Instant.now();
        lane.close();

        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(5));
        assertThat(handled).isEmpty();
        assertThat(result).isNotCompleted();
    }

    private static List<SagaRunner.Delivery> batch(String... messageIds) {
        return java.util.Arrays.stream(messageIds)
                .map(id -> new SagaRunner.Delivery(id, null))
                .toList();
    }

    /** Records the messages it is handed, in order. */
    private final class RecordingRunner extends SagaRunner {

        RecordingRunner() {
            super(null, null, null, null, null, null, null, new SimpleMeterRegistry());
        }

        @Override
        public List<String> handleBatch(List<Delivery> batch) {
            batch.forEach(delivery -> handled.add(delivery.messageId()));
            return batch.stream().map(delivery -> "RUNNING").toList();
        }
    }
}
