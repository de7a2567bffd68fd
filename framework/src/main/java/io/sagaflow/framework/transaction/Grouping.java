package io.sagaflow.framework.transaction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * Does the work that threads hand in at the same time together: one transaction, one commit and one flush of
 * PostgreSQL's log for a whole group of requests instead of one each (ADR 0024, ADR 0106).
 *
 * <p>No timer, no added wait: the first caller to find no group in flight does its own item at once. Callers that
 * arrive while a group is in flight queue; when it ends, the first of them does the queue (up to {@code maxGroup}
 * items) on its own thread, and so on. A lone item therefore costs what it costs alone, and groups grow only as far
 * as the work overlaps, which is when they pay. One group is in flight at a time. A bound of one item is no grouping
 * at all: each caller then does its own item on its own thread, as many at once as callers come, rather than waiting
 * in one queue for the one before it.
 *
 * <p>Each caller gets its own result or its own failure. {@link Work#together} says which items failed on their own
 * (a product that does not exist, stock that is short); the others of the group are kept. When the group fails as a
 * whole (a conflict keeps nothing of it, and a bad row fails the statement every row is in) its items are done again
 * one by one, so only the ones at fault fail. A database that is away (no connection to be had, the connection ended,
 * {@link TransientFailures}) is no item's fault: the group and every item queued behind it fail with it at once, rather
 * than each waiting in turn for a connection (ADR 0099).
 *
 * @param <T> what a caller hands in
 * @param <R> what it gets back
 */
public final class Grouping<T, R> {

    /**
     * The work, for a group and for one item alone.
     *
     * @param <T> what a caller hands in
     * @param <R> what it gets back
     */
    public interface Work<T, R> {

        /**
         * Does {@code items} together, in one transaction.
         *
         * @return one outcome per item, in the order of {@code items}
         * @throws RuntimeException if the group failed as a whole and kept nothing
         */
        List<Outcome<R>> together(List<T> items);

        /** Does {@code item} on its own, after its group failed as a whole. */
        R alone(T item);
    }

    /**
     * What became of one item of a group: its result, or the failure that was its own.
     *
     * @param <R> the result's type
     */
    public sealed interface Outcome<R> {

        static <R> Outcome<R> done(R result) {
            return new Done<>(result);
        }

        static <R> Outcome<R> failed(RuntimeException failure) {
            return new Failed<>(Objects.requireNonNull(failure, "failure"));
        }

        /** The item's result; its own failure is thrown. */
        R get();

        /** An item done. */
        record Done<R>(R result) implements Outcome<R> {

            @Override
            public R get() {
                return result;
            }
        }

        /** An item that failed on its own; the rest of its group stands. */
        record Failed<R>(RuntimeException failure) implements Outcome<R> {

            @Override
            public R get() {
                throw failure;
            }
        }
    }

    private final Work<T, R> work;
    private final int maxGroup;
    private final IntConsumer groupSizes;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Pending<T>> queue = new ArrayDeque<>();
    private boolean working;

    /**
     * @param maxGroup the most items one group takes
     * @param groupSizes told the size of every group done, for a metric
     */
    public Grouping(Work<T, R> work, int maxGroup, IntConsumer groupSizes) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("maxGroup must be at least 1: " + maxGroup);
        }
        this.work = Objects.requireNonNull(work, "work");
        this.maxGroup = maxGroup;
        this.groupSizes = Objects.requireNonNull(groupSizes, "groupSizes");
    }

    /**
     * Does {@code item} together with the items of other threads handed in at the same time. Returns once its group
     * is done.
     *
     * @throws RuntimeException the item's own failure, or its group's when the database is away
     */
    public R run(T item) {
        if (maxGroup == 1) {
            groupSizes.accept(1);
            return work.together(List.of(item)).getFirst().get();
        }
        Pending<T> mine = new Pending<>(item);
        boolean lead;
        lock.lock();
        try {
            queue.add(mine);
            lead = !working;
            working = true;
        } finally {
            lock.unlock();
        }
        if (!lead && mine.outcome.join() != Pending.LEAD) {
            return result(mine);
        }
        // This thread leads: it is at the head of the queue and does a group starting with its own item.
        List<Pending<T>> group = new ArrayList<>();
        Pending<T> next;
        try {
            lock.lock();
            try {
                while (group.size() < maxGroup && !queue.isEmpty()) {
                    group.add(queue.poll());
                }
            } finally {
                lock.unlock();
            }
            RuntimeException passing = doGroup(group);
            if (passing != null) {
                // The database is away: the items queued meanwhile would each wait for a connection in turn, past
                // their callers' time-outs. They fail now with the group, and their callers answer at once (503, ADR
                // 0099).
                List<Pending<T>> refused;
                lock.lock();
                try {
                    refused = new ArrayList<>(queue);
                    queue.clear();
                } finally {
                    lock.unlock();
                }
                refused.forEach(pending -> pending.settle(passing));
            }
        } finally {
            lock.lock();
            try {
                next = queue.peek();
                working = next != null;
            } finally {
                lock.unlock();
            }
            if (next != null) {
                next.outcome.complete(Pending.LEAD);
            }
        }
        return result(mine);
    }

    /** How many items wait for a group now, not counting the group being done. */
    public int waiting() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Does {@code group} and settles each of its items.
     *
     * @return the group's failure if it says the database is unavailable ({@link TransientFailures}), else null
     */
    private RuntimeException doGroup(List<Pending<T>> group) {
        groupSizes.accept(group.size());
        try {
            List<Outcome<R>> outcomes =
                    work.together(group.stream().map(pending -> pending.item).toList());
            if (outcomes.size() != group.size()) {
                throw new IllegalStateException(
                        outcomes.size() + " outcomes for a group of " + group.size() + " items");
            }
            for (int i = 0; i < group.size(); i++) {
                group.get(i).settle(outcomes.get(i));
            }
            return null;
        } catch (RuntimeException failure) {
            if (TransientFailures.isUnavailable(failure)) {
                // Not the fault of one item: each on its own would fail the same way, one after the other.
                group.forEach(pending -> pending.settle(failure));
                return failure;
            }
            if (group.size() == 1) {
                group.getFirst().settle(failure);
                return null;
            }
            // Nothing of the group was kept: each item on its own, so that only the ones at fault fail.
            for (Pending<T> pending : group) {
                try {
                    pending.settle(Outcome.done(work.alone(pending.item)));
                } catch (RuntimeException alone) {
                    pending.settle(alone);
                }
            }
            return null;
        } catch (Error error) {
            // Not the database's answer to an item: nothing to try again.
            group.forEach(pending -> pending.settle(error));
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private R result(Pending<T> pending) {
        return switch (pending.settled) {
            case Outcome<?> outcome -> (R) outcome.get();
            case RuntimeException failure -> throw failure;
            case Error failure -> throw failure;
            case null, default -> throw new IllegalStateException("no outcome for " + pending.item);
        };
    }

    /**
     * An item waiting for its group. Its caller waits for {@link #outcome}: its outcome, its failure, or the word to
     * lead the next group, after which it settles its own item itself.
     */
    private static final class Pending<T> {

        static final Object LEAD = new Object();

        final T item;
        final CompletableFuture<Object> outcome = new CompletableFuture<>();
        private volatile Object settled;

        Pending(T item) {
            this.item = item;
        }

        void settle(Object outcomeOrFailure) {
            settled = outcomeOrFailure;
            outcome.complete(outcomeOrFailure);
        }
    }
}
