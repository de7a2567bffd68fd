package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.transaction.Grouping;
import io.sagaflow.framework.transaction.Grouping.Outcome;
import java.util.List;
import java.util.function.IntConsumer;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Commits the appends that threads make at the same time, each in no transaction of its own, together: one
 * {@link EventStore#appendAll} and one commit for all of them (ADR 0024). The statements of a placed order (the
 * append with its outbox row, its view rows) then cost one round trip each for a whole group of orders instead of one
 * per order, and PostgreSQL flushes its log once per group.
 *
 * <p>The groups form as {@link Grouping} forms them: no timer, no added wait, a lone append costs what {@link
 * EventStore#append} costs. Each caller gets its own result or its own failure. When a group fails as a whole (a
 * conflict keeps nothing of it, and a bad row fails the statement every row is in) its appends are committed again
 * one by one, so only the ones at fault fail; a database that is away fails the group and the appends queued behind it
 * at once (ADR 0099). Two appends of one group to the same stream are merged if the later one expects what the earlier
 * one leaves ({@link EventStore#appendAll}); otherwise the group fails and each is tried alone, as if they had raced.
 */
public final class GroupCommit {

    private final Grouping<StreamAppend, AppendResult> appends;

    /**
     * @param maxGroup the most appends one commit takes
     * @param groupSizes told the size of every group committed, for a metric
     */
    public GroupCommit(EventStore store, int maxGroup, IntConsumer groupSizes) {
        this.appends = new Grouping<>(
                new Grouping.Work<>() {
                    @Override
                    public List<Outcome<AppendResult>> together(List<StreamAppend> group) {
                        return store.appendAll(group).stream()
                                .map(Outcome::done)
                                .toList();
                    }

                    @Override
                    public AppendResult alone(StreamAppend append) {
                        return store.appendAll(List.of(append)).getFirst();
                    }
                },
                maxGroup,
                groupSizes);
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
        return appends.run(append);
    }

    /** How many appends wait for a commit now, not counting the group being committed. */
    public int waiting() {
        return appends.waiting();
    }
}
