package io.sagaflow.framework.projection;

import io.sagaflow.framework.eventstore.AppendInterceptor;
import io.sagaflow.framework.eventstore.EventEnvelope;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Applies every appended event to every {@link Projection}, inside the append's transaction: each projection gets
 * all the events of an append at once ({@link Projection#applyAll}), so it can update its rows together, and the
 * statements of all the projections reach PostgreSQL in one round trip ({@link ViewWrites}).
 */
public final class ProjectionUpdater implements AppendInterceptor {

    private final List<Projection> projections;
    private final JdbcTemplate jdbc;

    public ProjectionUpdater(List<Projection> projections, JdbcTemplate jdbc) {
        this.projections = List.copyOf(projections);
        this.jdbc = jdbc;
    }

    @Override
    public void appended(List<StoredEvent> events) {
        List<EventEnvelope<Object>> envelopes =
                events.stream().map(StoredEvent::envelope).toList();
        ViewWrites writes = new ViewWrites(jdbc);
        for (Projection projection : projections) {
            projection.applyAll(envelopes, writes);
        }
        writes.flush();
    }
}
