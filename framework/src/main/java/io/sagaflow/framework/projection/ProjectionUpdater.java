package io.sagaflow.framework.projection;

import io.sagaflow.framework.eventstore.AppendInterceptor;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** Applies every appended event to every {@link Projection}, inside the append's transaction. */
public final class ProjectionUpdater implements AppendInterceptor {

    private final List<Projection> projections;
    private final JdbcTemplate jdbc;

    public ProjectionUpdater(List<Projection> projections, JdbcTemplate jdbc) {
        this.projections = List.copyOf(projections);
        this.jdbc = jdbc;
    }

    @Override
    public void appended(List<StoredEvent> events) {
        for (StoredEvent event : events) {
            for (Projection projection : projections) {
                projection.apply(event.envelope(), jdbc);
            }
        }
    }
}
