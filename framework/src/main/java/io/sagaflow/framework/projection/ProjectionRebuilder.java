package io.sagaflow.framework.projection;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.eventstore.JdbcEventStore;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds a projection from the event store: in one transaction that first locks out appends (a {@code SHARE} lock
 * on {@code es_stream}, which every append must update), it resets the view and replays every event once, in global
 * order. With writers excluded no event can arrive both by replay and by a concurrent append, so nothing is counted
 * twice; appends wait for the rebuild to finish.
 */
public final class ProjectionRebuilder {

    private static final int PAGE = 1_000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final JdbcEventStore events;

    public ProjectionRebuilder(JdbcTemplate jdbc, TransactionTemplate transactions, JdbcEventStore events) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.events = events;
    }

    /** Resets {@code projection} and replays the whole store into it; returns how many events were replayed. */
    public long rebuild(Projection projection) {
        Long replayed = transactions.execute(status -> {
            jdbc.execute("lock table es_stream in share mode");
            projection.reset(jdbc);
            long count = 0;
            GlobalPosition position = GlobalPosition.START;
            List<EventEnvelope<Object>> page;
            while (!(page = events.readAllWhileWritesExcluded(position, PAGE)).isEmpty()) {
                ViewWrites writes = new ViewWrites(jdbc);
                projection.applyAll(page, writes);
                writes.flush();
                count += page.size();
                position = page.getLast().globalPosition();
            }
            return count;
        });
        return replayed == null ? 0 : replayed;
    }
}
