package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.transaction.TransientFailures;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Commits the appends that threads make at the same time, each in no transaction of its own, together: one
 * {@link EventStore#appendAll} and one commit for all of them (ADR 0024). The statements of a placed order (the
 * append with its outbox row, its view rows) then cost one round trip each for a whole group of orders instead of one
 * per order, and PostgreSQL flushes its log once per group.
 *
 * <p>No timer, no added wait: the first caller to find no commit in flight commits its own append at once. Callers
 * that arrive while a commit is in flight queue; when it ends, the first of them commits the queue (up to {@code
 * maxGroup} appends) on its own thread, and so on. A lone append therefore costs what {@link EventStore#append} costs,
 * and groups grow only as far as commits overlap, which is when they pay.
 *
 * <p>Each caller gets its own result or its own failure. When a group fails as a whole (a conflict keeps nothing of
 * it, and a bad row fails the statement every row is in) its appends are committed again one by one, so only the ones
 * at fault fail. A database that is away (no connection to be had, the connection ended) is no append's fault: the
 * group and every append queued behind it fail with it at once, rather than each waiting in turn for a connection
 * (ADR 0099). A deadlock or another conflict still has each append tried alone. Two appends of one group to the same
 * stream are merged if the later one expects what the earlier one leaves ({@link EventStore#appendAll}); otherwise the
 * group fails and each is tried alone, as if they had raced.
 */
public final class GroupCommit {

    private final EventStore store;
    private final int maxGroup;
    private final IntConsumer groupSizes;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private boolean committing;

    /**
     * @param maxGroup the most appends one commit takes
     * @param groupSizes told the size of every group committed, for a metric
     */
    public GroupCommit(EventStore store, int maxGroup, IntConsumer groupSizes) {
        if (maxGroup < 1) {
            throw new IllegalArgumentException("maxGroup must be at least 1: " + maxGroup);
        }
        this.store = store;
        this.maxGroup = maxGroup;
        this.groupSizes = groupSizes;
    }

    /**
     * Appends as {@link EventStore#append} does, committed together with the appends of other threads made at the
     * same time. Returns once the append is committed.
     *
     * @throws IllegalStateException inside a transaction: an append there belongs to that transaction, use the store
     * @throws ConcurrencyConflictException if the stream is not at the expected version
     */
    public AppendResult append(StreamAppend append) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a group commit is its own transaction; inside one, append to the store");
        }
        Pending mine = new Pending(append);
        boolean lead;
        lock.lock();
        try {
            queue.add(mine);
            lead = !committing;
            committing = true;
        } finally {
            lock.unlock();
        }
        if (!lead && mine.outcome.join() != Pending.LEAD) {
            return mine.result();
        }
        // This thread leads: it is at the head of the queue and commits a group starting with its own append.
        List<Pending> group = new ArrayList<>();
        Pending next;
        try {
            lock.lock();
            try {
                while (group.size() < maxGroup && !queue.isEmpty()) {
                    group.add(queue.poll());
                }
            } finally {
                lock.unlock();
            }
            Throwable passing = commit(group);
            if (passing != null) {
                // The database is away: the appends queued meanwhile would each wait for a connection in turn, past
                // their callers' time-outs. They fail now with the group, and their callers answer at once (503, ADR
                // 0099).
                List<Pending> refused;
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
                committing = next != null;
            } finally {
                lock.unlock();
            }
            if (next != null) {
                next.outcome.complete(Pending.LEAD);
            }
        }
        return mine.result();
    }

    /** How many appends wait for a commit now, not counting the group being committed. */
    public int waiting() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Commits {@code group} and settles each of its appends.
     *
     * @return the group's failure if it says the database is unavailable ({@link TransientFailures}), else null
     */
    private Throwable commit(List<Pending> group) {
        groupSizes.accept(group.size());
        try {
            List<AppendResult> results = store.appendAll(
                    group.stream().map(pending -> pending.append).toList());
            for (int i = 0; i < group.size(); i++) {
                group.get(i).settle(results.get(i));
            }
            return null;
        } catch (RuntimeException | Error failure) {
            if (TransientFailures.isUnavailable(failure)) {
                // Not the fault of one append: each on its own would fail the same way, one after the other.
                group.forEach(pending -> pending.settle(failure));
                return failure;
            }
            if (group.size() == 1) {
                group.getFirst().settle(failure);
                return null;
            }
            // Nothing of the group was kept: each append on its own, so that only the ones at fault fail.
            for (Pending pending : group) {
                try {
                    pending.settle(store.appendAll(List.of(pending.append)).getFirst());
                } catch (RuntimeException | Error alone) {
                    pending.settle(alone);
                }
            }
            return null;
        }
    }

    /**
     * An append waiting for its group. Its caller waits for {@link #outcome}: its result, its failure, or the word to
     * lead the next group, after which it settles its own append itself.
     */
    private static final class Pending {

        static final Object LEAD = new Object();

        final StreamAppend append;
        final CompletableFuture<Object> outcome = new CompletableFuture<>();
        private volatile Object settled;

        Pending(StreamAppend append) {
            this.append = append;
        }

        void settle(Object resultOrFailure) {
            settled = resultOrFailure;
            outcome.complete(resultOrFailure);
        }

        AppendResult result() {
            return switch (settled) {
                case AppendResult result -> result;
                case RuntimeException failure -> throw failure;
                case Error failure -> throw failure;
                case null, default -> throw new IllegalStateException("no outcome for " + append.streamId());
            };
        }
    }
}
