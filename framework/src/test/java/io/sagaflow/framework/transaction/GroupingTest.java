package io.sagaflow.framework.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.transaction.Grouping.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/** The grouping on its own, with work that records its groups; {@code GroupCommitIT} runs it on PostgreSQL. */
class GroupingTest {

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final List<List<Integer>> groups = new CopyOnWriteArrayList<>();
    private final List<Integer> alone = new CopyOnWriteArrayList<>();
    private final List<Integer> sizes = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstStarted = new CountDownLatch(1);
    private final CompletableFuture<Void> releaseFirst = new CompletableFuture<>();
    private volatile boolean holdZero;
    private Future<String> first;

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void itemsHandedInWhileAGroupIsInFlightAreDoneTogetherEachWithItsOwnOutcome() throws Exception {
        Grouping<Integer, String> grouping = grouping(
                items -> items.stream()
                        .map(i -> i % 3 == 0 && i > 0
                                ? Outcome.<String>failed(new IllegalArgumentException("refused " + i))
                                : Outcome.done("done " + i))
                        .toList(),
                16);
        List<Future<String>> queued = behindAHeldGroup(grouping, 1, 2, 3, 4, 5, 6);

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done 0");
        for (int i = 1; i <= 6; i++) {
            Future<String> result = queued.get(i - 1);
            if (i % 3 == 0) {
                int item = i;
                assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(IllegalArgumentException.class)
                        .cause()
                        .hasMessage("refused " + item);
            } else {
                assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done " + i);
            }
        }
        assertThat(groups).hasSize(2);
        assertThat(groups.get(1)).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6);
        assertThat(sizes).containsExactly(1, 6);
        assertThat(alone).isEmpty();
    }

    @Test
    void aGroupThatFailsAsAWholeIsDoneAgainItemByItemSoOnlyTheItemAtFaultFails() throws Exception {
        Grouping<Integer, String> grouping = grouping(
                items -> {
                    if (items.contains(13)) {
                        throw new IllegalStateException("the statement every row is in failed");
                    }
                    return items.stream().map(i -> Outcome.done("done " + i)).toList();
                },
                16);
        List<Future<String>> queued = behindAHeldGroup(grouping, 12, 13);
        Future<String> good = queued.get(0);
        Future<String> bad = queued.get(1);

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done 0");
        assertThat(good.get(10, TimeUnit.SECONDS)).isEqualTo("done 12");
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(alone).containsExactlyInAnyOrder(12, 13);
    }

    @Test
    void whenTheDatabaseIsAwayTheGroupAndTheItemsQueuedBehindItFailAtOnce() throws Exception {
        Grouping<Integer, String> grouping = grouping(
                items -> {
                    throw new CannotGetJdbcConnectionException("no connection to be had");
                },
                2);
        List<Future<String>> queued = behindAHeldGroup(grouping, 1, 2, 3, 4);

        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(CannotGetJdbcConnectionException.class);
        for (Future<String> result : queued) {
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(CannotGetJdbcConnectionException.class);
        }
        assertThat(groups)
                .as("the queued items were not tried, each waiting for a connection in turn")
                .hasSize(1);
        assertThat(alone).isEmpty();
    }

    @Test
    void manyThreadsHandingInAtOnceEachGetTheirOwnResultAndNoGroupIsLargerThanTheBound() throws Exception {
        Grouping<Integer, String> grouping = grouping(
                items -> items.stream().map(i -> Outcome.done("done " + i)).toList(), 8);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            int item = i;
            results.add(threads.submit(() -> grouping.run(item)));
        }
        for (int i = 0; i < results.size(); i++) {
            assertThat(results.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("done " + i);
        }
        assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(2_000);
        assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 8));
        assertThat(grouping.waiting()).isZero();
    }

    @Test
    void withABoundOfOneEachItemIsDoneOnItsCallersThreadWithoutWaitingForAnother() throws Exception {
        Grouping<Integer, String> grouping = grouping(
                items -> items.stream().map(i -> Outcome.done("done " + i)).toList(), 1);
        holdZero = true;
        first = threads.submit(() -> grouping.run(0));
        assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(threads.submit(() -> grouping.run(1)).get(10, TimeUnit.SECONDS))
                .as("done while item 0 is still held")
                .isEqualTo("done 1");
        assertThat(grouping.waiting()).isZero();
        releaseFirst.complete(null);
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done 0");
        assertThat(sizes).containsExactly(1, 1);
    }

    @Test
    void refusesAGroupBoundBelowOne() {
        assertThatThrownBy(() -> grouping(items -> List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxGroup");
    }

    /**
     * Hands in item 0, whose group the work holds until released ({@link #first}), then {@code items} behind it;
     * releases item 0's group once they all wait.
     */
    private List<Future<String>> behindAHeldGroup(Grouping<Integer, String> grouping, int... items)
            throws InterruptedException {
        holdZero = true;
        first = threads.submit(() -> grouping.run(0));
        assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<String>> queued = new ArrayList<>();
        for (int item : items) {
            queued.add(threads.submit(() -> grouping.run(item)));
        }
        awaitWaiting(grouping, items.length);
        releaseFirst.complete(null);
        return queued;
    }

    /**
     * A grouping whose work records its groups, holds a group of item 0 alone until released (in {@link
     * #behindAHeldGroup}), then does {@code together}.
     */
    private Grouping<Integer, String> grouping(Function<List<Integer>, List<Outcome<String>>> together, int maxGroup) {
        return new Grouping<>(
                new Grouping.Work<>() {
                    @Override
                    public List<Outcome<String>> together(List<Integer> items) {
                        groups.add(List.copyOf(items));
                        if (holdZero && items.equals(List.of(0))) {
                            firstStarted.countDown();
                            releaseFirst.orTimeout(10, TimeUnit.SECONDS).join();
                        }
                        return together.apply(items);
                    }

                    @Override
                    public String alone(Integer item) {
                        alone.add(item);
                        if (item == 13) {
                            throw new IllegalStateException("item 13 is at fault");
                        }
                        return "done " + item;
                    }
                },
                maxGroup,
                sizes::add);
    }

    private static void awaitWaiting(Grouping<?, ?> grouping, int waiting) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (grouping.waiting() < waiting) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + grouping.waiting() + " items waiting after 10 s");
            }
            Thread.sleep(5);
        }
    }
}
