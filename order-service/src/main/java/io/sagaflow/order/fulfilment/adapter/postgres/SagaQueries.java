package io.sagaflow.order.fulfilment.adapter.postgres;

import io.sagaflow.order.fulfilment.application.EndedSagas;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Reads {@code saga_view}. */
public class SagaQueries implements EndedSagas {

    private static final String COLUMNS =
            "saga_id, status, current_step, steps::text, started_at, completed_at, deadline, failure_reason";
    private static final TypeReference<List<SagaView.Step>> STEPS = new TypeReference<>() {};

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public SagaQueries(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public Optional<SagaView> find(UUID sagaId) {
        return jdbc.query("select " + COLUMNS + " from saga_view where saga_id = ?", this::row, sagaId).stream()
                .findFirst();
    }

    /** The newest sagas, of one status or of any. */
    public List<SagaView> list(String status, int limit) {
        return status == null
                ? jdbc.query("select " + COLUMNS + " from saga_view order by started_at desc limit ?", this::row, limit)
                : jdbc.query(
                        "select " + COLUMNS + " from saga_view where status = ? order by started_at desc limit ?",
                        this::row,
                        status,
                        limit);
    }

    /** The running sagas' ids and deadlines, to re-arm their timers after the whole cluster restarted. */
    public List<RunningSaga> running() {
        return jdbc.query(
                "select saga_id, deadline from saga_view where status in ('RESERVING_STOCK', 'CHARGING_PAYMENT',"
                        + " 'COMPENSATING') and deadline is not null",
                (rs, n) -> new RunningSaga(
                        rs.getObject(1, UUID.class), rs.getTimestamp(2).toInstant()));
    }

    /**
     * A saga still waiting.
     *
     * @param sagaId its id
     * @param deadline when its wait ends
     */
    public record RunningSaga(UUID sagaId, Instant deadline) {}

    /**
     * {@inheritDoc}
     *
     * <p>The view changes in the transaction that appends to the saga's stream, so a row that says confirmed or
     * cancelled is a committed stream that ended so, and stays so.
     */
    @Override
    public Map<UUID, SagaStatus> among(Collection<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        UUID[] ids = orderIds.toArray(UUID[]::new);
        Map<UUID, SagaStatus> ended = new HashMap<>();
        jdbc.query(
                connection -> {
                    var statement = connection.prepareStatement("select saga_id, status from saga_view"
                            + " where saga_id = any(?) and status in ('CONFIRMED', 'CANCELLED')");
                    statement.setArray(1, connection.createArrayOf("uuid", ids));
                    return statement;
                },
                rs -> {
                    ended.put(rs.getObject(1, UUID.class), SagaStatus.valueOf(rs.getString(2)));
                });
        return ended;
    }

    /** How many sagas are quarantined. */
    public double quarantined() {
        Long count =
                jdbc.queryForObject("select count(*) from saga_view where status = 'COMPENSATION_FAILED'", Long.class);
        return count == null ? 0 : count;
    }

    /** How many sagas are in each status, and how many of them still run (one aggregate over {@code saga_view}). */
    public Counts counts() {
        Map<String, Long> byStatus = new TreeMap<>();
        jdbc.query("select status, count(*) from saga_view group by status", rs -> {
            byStatus.put(rs.getString(1), rs.getLong(2));
        });
        long running = byStatus.entrySet().stream()
                .filter(e -> !SagaStatus.valueOf(e.getKey()).isTerminal())
                .mapToLong(Map.Entry::getValue)
                .sum();
        return new Counts(byStatus, running);
    }

    /**
     * Sagas per status.
     *
     * @param byStatus how many sagas are in each {@code SagaStatus} that has any, by name
     * @param running how many are not terminal: still waiting for a participant, a deadline or a compensation
     */
    public record Counts(Map<String, Long> byStatus, long running) {}

    private SagaView row(ResultSet rs, int n) throws SQLException {
        Instant started = rs.getTimestamp(5).toInstant();
        Instant completed =
                rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant();
        return new SagaView(
                rs.getObject(1, UUID.class),
                rs.getString(2),
                rs.getString(3),
                json.readValue(rs.getString(4), STEPS),
                started,
                completed,
                completed == null ? null : completed.toEpochMilli() - started.toEpochMilli(),
                rs.getTimestamp(7) == null ? null : rs.getTimestamp(7).toInstant(),
                rs.getString(8));
    }
}
