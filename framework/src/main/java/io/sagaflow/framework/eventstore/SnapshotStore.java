package io.sagaflow.framework.eventstore;

import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Latest snapshot per stream, in {@code es_snapshot}. A snapshot whose type or schema version is not the current one
 * is ignored (the stream is replayed from the start instead), so snapshots never need upcasting.
 */
public final class SnapshotStore {

    private final JdbcTemplate jdbc;
    private final EventSerializer serializer;

    public SnapshotStore(JdbcTemplate jdbc, EventSerializer serializer) {
        this.jdbc = jdbc;
        this.serializer = serializer;
    }

    /** Stores {@code state} as the snapshot of {@code streamId} at {@code version}, unless a newer one exists. */
    public void save(String streamId, long version, String type, int schemaVersion, Object state) {
        jdbc.update(
                "insert into es_snapshot (stream_id, version, type, schema_version, state) values (?, ?, ?, ?, ?::jsonb)"
                        + " on conflict (stream_id) do update set version = excluded.version, type = excluded.type,"
                        + " schema_version = excluded.schema_version, state = excluded.state, taken_at = now()"
                        + " where es_snapshot.version < excluded.version",
                streamId,
                version,
                type,
                schemaVersion,
                serializer.write(state));
    }

    /** The snapshot of {@code streamId} if there is one of {@code type} at {@code schemaVersion}. */
    public <S> Optional<Snapshot<S>> load(String streamId, String type, int schemaVersion, Class<S> stateType) {
        return jdbc
                .query(
                        "select version, state::text from es_snapshot"
                                + " where stream_id = ? and type = ? and schema_version = ?",
                        (rs, row) -> new Snapshot<>(rs.getLong(1), serializer.read(rs.getString(2), stateType)),
                        streamId,
                        type,
                        schemaVersion)
                .stream()
                .findFirst();
    }

    /**
     * A stored state.
     *
     * @param version the stream version the state includes
     * @param state the state
     * @param <S> the state type
     */
    public record Snapshot<S>(long version, S state) {}
}
