package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs the commands that threads give it at the same time together, in one transaction: for appends, one
 * {@link EventStore#appendAll} and one commit for all of them (ADR 0024). The statements of a placed order (the
 * append, its outbox row, its view rows) then cost one round trip each for a whole group of orders instead of one per
 * order, and PostgreSQL flushes its log once per group.
 *
 * <p>No timer, no added wait: the first caller to find no group in flight runs its own command at once. Callers that
 * arrive while a group is in flight queue; when it ends, the first of them runs the queue (up to {@code maxGroup}
 * commands) on its own thread, and so on. A lone command therefore costs what it costs alone, and groups grow only as
 * far as transactions overlap, which is when they pay.
 *
 * <p>Each caller gets its own result or its own failure. A {@link Runner} reports a command that fails alone (a
 * refusal) as its outcome, keeping the others. When a group fails as a whole (for appends: a conflict keeps nothing
 * of it, and a bad row fails the statement every row is in), its commands are run again one by one, so only the ones
 * at fault fail.
 *
 * @param <C> a command
 * @param <R> what running a command gives its caller
 */
public final class GroupCommit<C, R> {

    /** What a group of commands does, in a transaction of its own. */
    @FunctionalInterface
    public interface Runner<C, R> {

        /**
         * Runs {@code commands} together, in their order, and returns one outcome per command: its result, or the
         * exception it alone failed with (none of its effects kept). Throws to fail the group as a whole, keeping
         * nothing of it.
         */
        List<Outcome<R>> run(List<C> commands);
    }

    /** The outcome of one command of a group. */
    public sealed interface Outcome<R> {

        static <R> Outcome<R> done(R result) {
            return new Done<>(result);
        }

        static <R> Outcome<R> failed(RuntimeException failure) {
            return new Failed<>(failure);
        }

        /** The command took effect. */
        record Done<R>(R result) implements Outcome<R> {}

        /** The command alone failed and left nothing behind. */
        record Failed<R>(RuntimeException failure) implements Outcome<R> {}
    }

    private final Runner<C, R> runner;
    private final int maxGroup;
    private final IntConsumer groupSizes;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Pending<C, R>> queue = new ArrayDeque<>();
    private boolean running;

    /**
     * @param maxGroup the most commands one group takes
     * @param groupSizes told the size of every group run, for a metric
     */
    public GroupCommit(Runner<C, R> runner, int maxGroup, IntConsumer groupSizes) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("maxGroup must be at least 1: " + maxGroup);
        }
        this.runner = runner;
        this.maxGroup = maxGroup;
        this.groupSizes = groupSizes;
    }

    /**
     * Appends committed together: each caller's append as {@link EventStore#append} makes it.
     *
     * @see #execute
     */
    public static GroupCommit<StreamAppend, AppendResult> ofAppends(
            EventStore store, int maxGroup, IntConsumer groupSizes) {
        return new GroupCommit<>(
                appends -> store.appendAll(appends).stream().map(Outcome::done).toList(), maxGroup, groupSizes);
    }

    /**
     * Runs {@code command} together with the commands of other threads given at the same time. Returns once its group
     * has committed.
     *
     * @throws IllegalStateException inside a transaction: a command there belongs to that transaction
     * @throws RuntimeException what the command alone failed with
     */
    public R execute(C command) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a group commit is its own transaction; inside one, run the command there");
        }
        Pending<C, R> mine = new Pending<>(command);
        boolean lead;
        lock.lock();
        try {
            queue.add(mine);
            lead = !running;
            running = true;
        } finally {
            lock.unlock();
        }
        if (!lead && mine.outcome.join() != Pending.LEAD) {
            return mine.result();
        }
        // This thread leads: it is at the head of the queue and runs a group starting with its own command.
        List<Pending<C, R>> group = new ArrayList<>();
        Pending<C, R> next;
        try {
            lock.lock();
            try {
                while (group.size() < maxGroup && !queue.isEmpty()) {
                    group.add(queue.poll());
                }
            } finally {
                lock.unlock();
            }
            run(group);
        } finally {
            lock.lock();
            try {
                next = queue.peek();
                running = next != null;
            } finally {
                lock.unlock();
            }
            if (next != null) {
                next.outcome.complete(Pending.LEAD);
            }
        }
        return mine.result();
    }

    /** How many commands wait for a group now, not counting the group being run. */
    public int waiting() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void run(List<Pending<C, R>> group) {
        groupSizes.accept(group.size());
        try {
            settle(
                    group,
                    runner.run(group.stream().map(pending -> pending.command).toList()));
        } catch (RuntimeException | Error failure) {
            if (group.size() == 1) {
                group.getFirst().settle(failure);
                return;
            }
            // Nothing of the group was kept: each command on its own, so that only the ones at fault fail.
            for (Pending<C, R> pending : group) {
                try {
                    settle(List.of(pending), runner.run(List.of(pending.command)));
                } catch (RuntimeException | Error alone) {
                    pending.settle(alone);
                }
            }
        }
    }

    private static <C, R> void settle(List<Pending<C, R>> group, List<Outcome<R>> outcomes) {
        if (outcomes.size() != group.size()) {
            throw new IllegalStateException(outcomes.size() + " outcomes for " + group.size() + " commands");
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).settle(outcomes.get(i));
        }
    }

    /**
     * A command waiting for its group. Its caller waits for {@link #outcome}: its outcome (or the error its group
     * died of), or the word to lead the next group, after which it settles its own command itself.
     */
    private static final class Pending<C, R> {

        static final Object LEAD = new Object();

        final C command;
        final CompletableFuture<Object> outcome = new CompletableFuture<>();
        private volatile Object settled;

        Pending(C command) {
            this.command = command;
        }

        /** With an {@link Outcome}, or with what the command's group failed with when it ran alone. */
        void settle(Object outcomeOrFailure) {
            settled = outcomeOrFailure;
            outcome.complete(outcomeOrFailure);
        }

        R result() {
            return switch (settled) {
                case Outcome.Done<?> done -> resultOf(done);
                case Outcome.Failed<?> failed -> throw failed.failure();
                case RuntimeException failure -> throw failure;
                case Error failure -> throw failure;
                case null, default -> throw new IllegalStateException("no outcome");
            };
        }

        @SuppressWarnings("unchecked")
        private R resultOf(Outcome.Done<?> done) {
            return (R) done.result();
        }
    }
}
