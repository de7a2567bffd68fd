package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BoundedHandlersTest {

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void runsAtMostTheLimitAtOnce_andTheRestOnceSlotsFree() throws InterruptedException {
        BoundedHandlers handlers = new BoundedHandlers(threads, 3, meters);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(10);
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();

        for (int i = 0; i < 10; i++) {
            handlers.execute(() -> {
                most.accumulateAndGet(now.incrementAndGet(), Math::max);
                awaitQuietly(gate);
                now.decrementAndGet();
                done.countDown();
            });
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> now.get() == 3);
        assertThat(handlers.running()).isEqualTo(3);
        assertThat(handlers.queued()).isEqualTo(7);
        assertThat(meters.get("sagaflow.http.handlers.queued").gauge().value()).isEqualTo(7);

        gate.countDown();

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(most).hasValue(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.running() == 0);
        assertThat(handlers.queued()).isZero();
        assertThat(meters.get("sagaflow.http.handler.queue").timer().count()).isEqualTo(10);
    }

    @Test
    void startsWaitingTasksInArrivalOrder() throws InterruptedException {
        BoundedHandlers handlers = new BoundedHandlers(threads, 1, meters);
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(20);
        handlers.execute(() -> awaitQuietly(gate));

        for (int i = 0; i < 20; i++) {
            int n = i;
            handlers.execute(() -> {
                order.add(n);
                done.countDown();
            });
        }
        gate.countDown();

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order)
                .containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList());
    }

    @Test
    void aTaskThatParksGivesItsSlotBackFirst() throws InterruptedException {
        BoundedHandlers handlers = new BoundedHandlers(threads, 1, meters);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch other = new CountDownLatch(1);
        handlers.execute(() -> {
            BoundedHandlers.releaseEarly();
            BoundedHandlers.releaseEarly(); // twice frees one slot, not two
            awaitQuietly(gate);
        });

        handlers.execute(other::countDown);

        assertThat(other.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.running() == 0);
        gate.countDown();
        threads.shutdown(); // the parked task ends; its slot was given back already and must not be given back again
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(handlers.running()).isZero();
    }

    @Test
    void releaseEarlyOutsideAHandlerDoesNothing() {
        BoundedHandlers.releaseEarly();
    }

    @Test
    void losesNoTaskWhenManyThreadsQueueAndFinishAtOnce() throws InterruptedException {
        BoundedHandlers handlers = new BoundedHandlers(threads, 2, meters);
        int submitters = 8;
        int each = 2_000;
        CountDownLatch done = new CountDownLatch(submitters * each);
        try (ExecutorService platform = Executors.newFixedThreadPool(submitters)) {
            for (int s = 0; s < submitters; s++) {
                platform.execute(() -> {
                    for (int i = 0; i < each; i++) {
                        handlers.execute(done::countDown);
                    }
                });
            }
        }

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.running() == 0);
        assertThat(handlers.queued()).isZero();
    }

    @Test
    void refusesALimitBelowOne() {
        assertThatThrownBy(() -> new BoundedHandlers(threads, 0, meters))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
