package io.sagaflow.framework.projection;

import io.sagaflow.framework.eventstore.EventEnvelope;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A read model kept in PostgreSQL tables. {@link #apply} runs inside the transaction of every append (and of every
 * event a rebuild replays), so the view is exactly as current as the event store, on every replica.
 */
public interface Projection {

    /** Stable name, for logs and the rebuild endpoint. */
    String name();

    /**
     * Updates the view for {@code event}, through {@code writes}, which sends its statements with the other views'
     * (ADR 0065); ignores events it does not show.
     */
    void apply(EventEnvelope<Object> event, ViewWrites writes);

    /**
     * Updates the view for {@code events}, in their order: what one append (of one stream or many) wrote. A view
     * that can update many rows in one statement overrides this; by default each event is applied on its own.
     */
    default void applyAll(List<EventEnvelope<Object>> events, ViewWrites writes) {
        for (EventEnvelope<Object> event : events) {
            apply(event, writes);
        }
    }

    /** Deletes everything the view holds, before a rebuild replays every event into it. */
    void reset(JdbcTemplate jdbc);
}
