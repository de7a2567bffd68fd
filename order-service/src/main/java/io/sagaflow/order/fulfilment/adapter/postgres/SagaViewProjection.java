package io.sagaflow.order.fulfilment.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.SqlArray;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import io.sagaflow.framework.transaction.AfterCommit;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.fulfilment.application.SagaView;
import io.sagaflow.order.fulfilment.application.SagaView.Step;
import io.sagaflow.order.fulfilment.domain.SagaFact;
import io.sagaflow.order.fulfilment.domain.SagaFact.CompensationFailed;
import io.sagaflow.order.fulfilment.domain.SagaFact.CompensationRetried;
import io.sagaflow.order.fulfilment.domain.SagaFact.CompensationStarted;
import io.sagaflow.order.fulfilment.domain.SagaFact.PaymentCaptureConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.PaymentRejected;
import io.sagaflow.order.fulfilment.domain.SagaFact.RefundConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.SagaDiscarded;
import io.sagaflow.order.fulfilment.domain.SagaFact.StockReleaseConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.StockReservationConfirmed;
import io.sagaflow.order.fulfilment.domain.SagaFact.StockReservationRejected;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps {@code saga_view} in step with the order streams: status, steps with their times, deadline, failure.
 *
 * <p>A row is a function of its order stream's events, and every event of a stream this JVM appends passes through
 * here in the append's transaction. So the projection keeps the rows it wrote, each with the stream version it shows
 * (up to {@link #DEFAULT_KEPT} open sagas), and a saga step whose events follow on directly from a kept row's version
 * changes that row without reading it back: no select and no parse of its steps per step (ADR 0053). A kept row is
 * taken only when its version is exactly the one before the step's first event, so a saga moved on by another
 * replica, a rolled-back step or an evicted row is read from the table as before. Kept rows change only after their
 * transaction commits, and leave once their saga has ended.
 */
public class SagaViewProjection implements Projection {

    /** How many open sagas' rows are kept: a few seconds of sagas at the 500 iter/s, under 4 MB. */
    public static final int DEFAULT_KEPT = 4096;

    private static final TypeReference<List<Step>> STEPS = new TypeReference<>() {};
    private static final String COLUMNS = "saga_id, status, steps::text as steps, deadline, failure_reason";

    private final JsonMapper json;
    private final ViewCache<SagaView> cache;
    private final int keptLimit;
    private final ConcurrentMap<UUID, Kept> kept = new ConcurrentHashMap<>();

    public SagaViewProjection(JsonMapper json, ViewCache<SagaView> cache) {
        this(json, cache, DEFAULT_KEPT);
    }

    /** @param keptLimit how many sagas' rows to keep at most; 0 keeps none and reads every row it changes */
    public SagaViewProjection(JsonMapper json, ViewCache<SagaView> cache, int keptLimit) {
        if (keptLimit < 0) {
            throw new IllegalArgumentException("keptLimit must be >= 0, was " + keptLimit);
        }
        this.json = json;
        this.cache = cache;
        this.keptLimit = keptLimit;
    }

    @Override
    public String name() {
        return "saga-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, ViewWrites writes) {
        applyAll(List.of(event), writes);
    }

    /**
     * Inserts the rows of placed orders, then changes the rows the other events of the sagas' streams change: a kept
     * row when the events follow on from it, otherwise the rows read in one query; writes the changed rows back in one
     * statement.
     */
    @Override
    public void applyAll(List<EventEnvelope<Object>> events, ViewWrites writes) {
        Map<UUID, List<EventEnvelope<Object>>> changes = new LinkedHashMap<>();
        List<EventEnvelope<Object>> placed = new ArrayList<>();
        for (EventEnvelope<Object> event : events) {
            UUID sagaId = sagaOf(event.streamId());
            if (sagaId == null) {
                continue;
            }
            if (event.payload() instanceof OrderPlaced) {
                placed.add(event);
            } else {
                changes.computeIfAbsent(sagaId, id -> new ArrayList<>()).add(event);
            }
        }
        Map<UUID, Kept> written = new HashMap<>();
        if (!placed.isEmpty()) {
            insert(writes, placed, written);
        }
        if (!changes.isEmpty()) {
            change(writes, changes, written);
        }
        keepAfterCommit(written);
    }

    /** The saga of an order stream's event, {@code null} for any other stream. */
    private static UUID sagaOf(String streamId) {
        if (!streamId.startsWith(OrderContracts.ORDER_STREAM)) {
            return null;
        }
        try {
            return UUID.fromString(streamId.substring(OrderContracts.ORDER_STREAM.length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The rows of sagas that start, in one statement on arrays whose text does not depend on how many orders a group
     * placed (ADR 0042, 0053). A new saga is not in the cache (a read before this commits finds no row, and the cache
     * keeps nothing for a miss), so there is nothing to drop from it.
     */
    private void insert(ViewWrites writes, List<EventEnvelope<Object>> placed, Map<UUID, Kept> written) {
        int size = placed.size();
        UUID[] sagaIds = new UUID[size];
        String[] steps = new String[size];
        String[] times = new String[size];
        String[] deadlines = new String[size];
        for (int i = 0; i < size; i++) {
            EventEnvelope<Object> event = placed.get(i);
            OrderPlaced order = (OrderPlaced) event.payload();
            Instant at = event.occurredAt();
            List<Step> started = List.of(
                    new Step("PLACE_ORDER", "COMPLETED", at, at, null),
                    new Step("RESERVE_STOCK", "IN_PROGRESS", at, null, null));
            sagaIds[i] = order.orderId();
            steps[i] = json.writeValueAsString(started);
            times[i] = at.toString();
            deadlines[i] = order.deadline().toString();
            Row row = new Row(
                    order.orderId(),
                    SagaStatus.RESERVING_STOCK.name(),
                    new ArrayList<>(started),
                    order.deadline(),
                    null);
            row.updatedAt = at;
            written.put(order.orderId(), new Kept(event.version(), row));
        }
        writes.update(
                "insert into saga_view (saga_id, status, current_step, steps, started_at, deadline, updated_at)"
                        + " select s.saga_id, '" + SagaStatus.RESERVING_STOCK.name() + "', 'RESERVE_STOCK',"
                        + " s.steps::jsonb, s.at::timestamptz, s.deadline::timestamptz, s.at::timestamptz"
                        + " from unnest(?::uuid[], ?::text[], ?::text[], ?::text[]) as s (saga_id, steps, at, deadline)",
                new SqlArray("uuid", sagaIds),
                new SqlArray("text", steps),
                new SqlArray("text", times),
                new SqlArray("text", deadlines));
    }

    private void change(ViewWrites writes, Map<UUID, List<EventEnvelope<Object>>> changes, Map<UUID, Kept> written) {
        Map<UUID, Row> rows = new HashMap<>();
        List<UUID> unknown = new ArrayList<>();
        changes.forEach((sagaId, sagaEvents) -> {
            Kept known = written.containsKey(sagaId) ? written.get(sagaId) : kept.get(sagaId);
            if (known != null && known.version() == sagaEvents.getFirst().version() - 1) {
                rows.put(sagaId, known.row().copy());
            } else if (sagaEvents.stream().anyMatch(event -> shown(event.payload()))) {
                unknown.add(sagaId);
            }
        });
        if (!unknown.isEmpty()) {
            // A read sends what is queued before it.
            JdbcTemplate jdbc = writes.jdbc();
            rows.putAll(unknown.size() == 1 ? readOne(jdbc, unknown.getFirst()) : read(jdbc, unknown));
        }
        List<Row> changed = new ArrayList<>();
        changes.forEach((sagaId, sagaEvents) -> {
            Row row = rows.get(sagaId);
            if (row == null) {
                // Nothing the view shows, and no row kept to move on: the next change reads the row.
                written.remove(sagaId);
                return;
            }
            boolean moved = false;
            for (EventEnvelope<Object> event : sagaEvents) {
                moved |= row.apply(event.payload(), event.occurredAt());
            }
            if (moved) {
                changed.add(row);
            }
            if (consecutive(sagaEvents)) {
                written.put(sagaId, new Kept(sagaEvents.getLast().version(), row));
            } else {
                written.remove(sagaId);
            }
        });
        if (changed.isEmpty()) {
            return;
        }
        if (changed.size() == 1) {
            writeOne(writes, changed.getFirst());
        } else {
            write(writes, changed);
        }
        changed.forEach(row -> cache.invalidateAfterCommit(row.sagaId.toString()));
    }

    /** Whether the view shows {@code payload}: what {@link Row#apply} changes a row for. */
    private static boolean shown(Object payload) {
        return payload instanceof SagaFact || payload instanceof OrderConfirmed || payload instanceof OrderCancelled;
    }

    /** Whether a saga's events follow on one another without a gap, as one append's do. */
    private static boolean consecutive(List<EventEnvelope<Object>> sagaEvents) {
        for (int i = 1; i < sagaEvents.size(); i++) {
            if (sagaEvents.get(i).version() != sagaEvents.get(i - 1).version() + 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Keeps the rows written once their transaction commits (at once outside one): a row whose saga ended leaves, and a
     * row of a later version never gives way to an earlier one, whichever transaction's commit is told first.
     */
    private void keepAfterCommit(Map<UUID, Kept> written) {
        if (written.isEmpty() || keptLimit == 0) {
            return;
        }
        AfterCommit.run(() -> keep(written));
    }

    private void keep(Map<UUID, Kept> written) {
        written.forEach((sagaId, row) -> {
            if (row.row().ended()) {
                kept.remove(sagaId);
                return;
            }
            if (kept.size() >= keptLimit && !kept.containsKey(sagaId)) {
                // Full: make room by any one row; a saga whose row went is read again at its next step.
                var any = kept.keySet().iterator();
                if (any.hasNext()) {
                    kept.remove(any.next());
                }
            }
            kept.merge(sagaId, row, (earlier, later) -> later.version() >= earlier.version() ? later : earlier);
        });
    }

    /** How many sagas' rows are kept now. */
    int keptRows() {
        return kept.size();
    }

    private Row row(ResultSet rs) throws SQLException {
        return new Row(
                rs.getObject("saga_id", UUID.class),
                rs.getString("status"),
                new ArrayList<>(json.readValue(rs.getString("steps"), STEPS)),
                rs.getTimestamp("deadline") == null
                        ? null
                        : rs.getTimestamp("deadline").toInstant(),
                rs.getString("failure_reason"));
    }

    /** One saga's row: the scalar statement, cheaper than the array form for one. */
    private Map<UUID, Row> readOne(JdbcTemplate jdbc, UUID sagaId) {
        Map<UUID, Row> rows = new HashMap<>();
        jdbc.query(
                "select " + COLUMNS + " from saga_view where saga_id = ?",
                rs -> {
                    rows.put(sagaId, row(rs));
                },
                sagaId);
        return rows;
    }

    private Map<UUID, Row> read(JdbcTemplate jdbc, Collection<UUID> sagaIds) {
        UUID[] ids = sagaIds.toArray(UUID[]::new);
        Map<UUID, Row> rows = new HashMap<>();
        jdbc.query(
                connection -> {
                    var statement =
                            connection.prepareStatement("select " + COLUMNS + " from saga_view where saga_id = any(?)");
                    statement.setArray(1, connection.createArrayOf("uuid", ids));
                    return statement;
                },
                rs -> {
                    Row row = row(rs);
                    rows.put(row.sagaId, row);
                });
        return rows;
    }

    private void writeOne(ViewWrites writes, Row row) {
        writes.update(
                "update saga_view set status = ?, current_step = ?, steps = ?::jsonb, deadline = ?,"
                        + " failure_reason = ?, completed_at = coalesce(?, completed_at), updated_at = ?"
                        + " where saga_id = ?",
                row.status,
                row.steps.getLast().name(),
                json.writeValueAsString(row.steps),
                row.deadline == null ? null : Timestamp.from(row.deadline),
                row.failureReason,
                row.completedAt == null ? null : Timestamp.from(row.completedAt),
                Timestamp.from(row.updatedAt),
                row.sagaId);
    }

    /** Many sagas' rows in one statement, their columns passed as arrays. */
    private void write(ViewWrites writes, List<Row> changed) {
        int size = changed.size();
        UUID[] sagaIds = new UUID[size];
        String[][] columns = new String[7][size];
        for (int i = 0; i < size; i++) {
            Row row = changed.get(i);
            sagaIds[i] = row.sagaId;
            columns[0][i] = row.status;
            columns[1][i] = row.steps.getLast().name();
            columns[2][i] = json.writeValueAsString(row.steps);
            columns[3][i] = row.deadline == null ? null : row.deadline.toString();
            columns[4][i] = row.failureReason;
            columns[5][i] = row.completedAt == null ? null : row.completedAt.toString();
            columns[6][i] = row.updatedAt.toString();
        }
        SqlArray[] arrays = new SqlArray[columns.length + 1];
        arrays[0] = new SqlArray("uuid", sagaIds);
        for (int c = 0; c < columns.length; c++) {
            arrays[c + 1] = new SqlArray("text", columns[c]);
        }
        // Instants go as ISO-8601 text with their offset: no session time zone can shift them.
        writes.update(
                "update saga_view v set status = u.status,"
                        + " current_step = u.current_step, steps = u.steps::jsonb, deadline = u.deadline::timestamptz,"
                        + " failure_reason = u.failure_reason,"
                        + " completed_at = coalesce(u.completed_at::timestamptz, v.completed_at),"
                        + " updated_at = u.updated_at::timestamptz"
                        + " from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],"
                        + " ?::text[]) as u (saga_id, status, current_step, steps, deadline, failure_reason,"
                        + " completed_at, updated_at) where v.saga_id = u.saga_id",
                (Object[]) arrays);
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from saga_view");
        kept.clear();
        cache.clear();
    }

    /** A row as a transaction wrote it, and the version of its order stream it shows. */
    private record Kept(long version, Row row) {}

    /** A {@code saga_view} row being changed. */
    private static final class Row {
        final UUID sagaId;
        String status;
        final List<Step> steps;
        Instant deadline;
        String failureReason;
        Instant completedAt;
        Instant updatedAt;

        Row(UUID sagaId, String status, List<Step> steps, Instant deadline, String failureReason) {
            this.sagaId = sagaId;
            this.status = status;
            this.steps = steps;
            this.deadline = deadline;
            this.failureReason = failureReason;
        }

        /** A copy to change: a kept row stays as its transaction wrote it (steps are immutable records). */
        Row copy() {
            Row copy = new Row(sagaId, status, new ArrayList<>(steps), deadline, failureReason);
            copy.completedAt = completedAt;
            copy.updatedAt = updatedAt;
            return copy;
        }

        /** Whether the saga ended: no step of its will come, unless an operator's. */
        boolean ended() {
            return status.equals(SagaStatus.CONFIRMED.name())
                    || status.equals(SagaStatus.CANCELLED.name())
                    || status.equals(SagaStatus.COMPENSATION_FAILED.name());
        }

        /** Applies {@code event}, which happened {@code at}; false if it does not show in the view. */
        boolean apply(Object event, Instant at) {
            switch (event) {
                case StockReservationConfirmed confirmed -> {
                    finish("RESERVE_STOCK", "COMPLETED", at, null);
                    begin("CHARGE_PAYMENT", at);
                    status = SagaStatus.CHARGING_PAYMENT.name();
                }
                case StockReservationRejected rejected -> finish("RESERVE_STOCK", "FAILED", at, rejected.reason());
                case PaymentCaptureConfirmed captured -> {
                    finish("CHARGE_PAYMENT", "COMPLETED", at, null);
                    begin("CONFIRM_ORDER", at);
                }
                case PaymentRejected rejected -> finish("CHARGE_PAYMENT", "FAILED", at, rejected.reason());
                case CompensationStarted started -> {
                    finish("RESERVE_STOCK", "ABORTED", at, started.reason());
                    finish("CHARGE_PAYMENT", "ABORTED", at, started.reason());
                    if (started.releaseStock()) {
                        begin("RELEASE_STOCK", at);
                    }
                    if (started.refundPayment()) {
                        begin("REFUND_PAYMENT", at);
                    }
                    status = SagaStatus.COMPENSATING.name();
                    deadline = started.deadline();
                    failureReason = started.reason();
                }
                case CompensationRetried retried -> {
                    status = SagaStatus.COMPENSATING.name();
                    deadline = retried.deadline();
                    note("attempt " + retried.attempt());
                }
                case StockReleaseConfirmed released -> finish("RELEASE_STOCK", "COMPLETED", at, null);
                case RefundConfirmed refunded ->
                    finish("REFUND_PAYMENT", refunded.refunded() ? "COMPLETED" : "NOT_REQUIRED", at, null);
                case CompensationFailed failed -> {
                    status = SagaStatus.COMPENSATION_FAILED.name();
                    deadline = null;
                    failureReason = failed.reason();
                }
                case SagaDiscarded discarded ->
                    note("discarded by " + discarded.operator() + ": " + discarded.reason());
                case OrderConfirmed confirmed -> {
                    finish("CONFIRM_ORDER", "COMPLETED", at, null);
                    status = SagaStatus.CONFIRMED.name();
                    deadline = null;
                    completedAt = at;
                }
                case OrderCancelled cancelled -> {
                    status = SagaStatus.CANCELLED.name();
                    deadline = null;
                    failureReason = cancelled.reason();
                    completedAt = at;
                }
                default -> {
                    return false;
                }
            }
            updatedAt = at;
            return true;
        }

        void begin(String name, Instant at) {
            steps.add(new Step(name, "IN_PROGRESS", at, null, null));
        }

        void finish(String name, String outcome, Instant at, String detail) {
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                if (step.name().equals(name) && "IN_PROGRESS".equals(step.status())) {
                    steps.set(i, new Step(name, outcome, step.startedAt(), at, detail));
                }
            }
        }

        void note(String detail) {
            Step last = steps.getLast();
            steps.set(
                    steps.size() - 1,
                    new Step(last.name(), last.status(), last.startedAt(), last.completedAt(), detail));
        }
    }
}
