package io.sagaflow.order.fulfilment.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
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
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Keeps {@code saga_view} in step with the order streams: status, steps with their times, deadline, failure. */
public class SagaViewProjection implements Projection {

    private static final TypeReference<List<Step>> STEPS = new TypeReference<>() {};

    private final JsonMapper json;
    private final ViewCache<SagaView> cache;

    public SagaViewProjection(JsonMapper json, ViewCache<SagaView> cache) {
        this.json = json;
        this.cache = cache;
    }

    @Override
    public String name() {
        return "saga-view";
    }

    @Override
    public void apply(EventEnvelope<Object> event, JdbcTemplate jdbc) {
        Instant at = event.occurredAt();
        switch (event.payload()) {
            case OrderPlaced placed -> {
                List<Step> steps = List.of(
                        new Step("PLACE_ORDER", "COMPLETED", at, at, null),
                        new Step("RESERVE_STOCK", "IN_PROGRESS", at, null, null));
                jdbc.update(
                        "insert into saga_view (saga_id, status, current_step, steps, started_at, deadline, updated_at)"
                                + " values (?, ?, 'RESERVE_STOCK', ?::jsonb, ?, ?, ?)",
                        placed.orderId(),
                        SagaStatus.RESERVING_STOCK.name(),
                        json.writeValueAsString(steps),
                        Timestamp.from(at),
                        Timestamp.from(placed.deadline()),
                        Timestamp.from(at));
                cache.invalidateAfterCommit(placed.orderId().toString());
            }
            case SagaFact fact -> change(jdbc, fact.orderId(), at, fact);
            case OrderConfirmed confirmed -> change(jdbc, confirmed.orderId(), at, confirmed);
            case OrderCancelled cancelled -> change(jdbc, cancelled.orderId(), at, cancelled);
            default -> {
                // requests to participants show as steps through the facts that start them
            }
        }
    }

    private void change(JdbcTemplate jdbc, UUID sagaId, Instant at, Object event) {
        List<Row> rows = jdbc.query(
                "select status, current_step, steps::text, deadline, failure_reason from saga_view where saga_id = ?",
                (rs, n) -> new Row(
                        rs.getString(1),
                        rs.getString(2),
                        new ArrayList<>(json.readValue(rs.getString(3), STEPS)),
                        rs.getTimestamp(4) == null ? null : rs.getTimestamp(4).toInstant(),
                        rs.getString(5)),
                sagaId);
        if (rows.isEmpty()) {
            return;
        }
        Row row = rows.getFirst();
        Instant completedAt = null;
        switch (event) {
            case StockReservationConfirmed confirmed -> {
                row.finish("RESERVE_STOCK", "COMPLETED", at, null);
                row.begin("CHARGE_PAYMENT", at);
                row.status = SagaStatus.CHARGING_PAYMENT.name();
            }
            case StockReservationRejected rejected -> row.finish("RESERVE_STOCK", "FAILED", at, rejected.reason());
            case PaymentCaptureConfirmed captured -> {
                row.finish("CHARGE_PAYMENT", "COMPLETED", at, null);
                row.begin("CONFIRM_ORDER", at);
            }
            case PaymentRejected rejected -> row.finish("CHARGE_PAYMENT", "FAILED", at, rejected.reason());
            case CompensationStarted started -> {
                row.finish("RESERVE_STOCK", "ABORTED", at, started.reason());
                row.finish("CHARGE_PAYMENT", "ABORTED", at, started.reason());
                if (started.releaseStock()) {
                    row.begin("RELEASE_STOCK", at);
                }
                if (started.refundPayment()) {
                    row.begin("REFUND_PAYMENT", at);
                }
                row.status = SagaStatus.COMPENSATING.name();
                row.deadline = started.deadline();
                row.failureReason = started.reason();
            }
            case CompensationRetried retried -> {
                row.status = SagaStatus.COMPENSATING.name();
                row.deadline = retried.deadline();
                row.note("attempt " + retried.attempt());
            }
            case StockReleaseConfirmed released -> row.finish("RELEASE_STOCK", "COMPLETED", at, null);
            case RefundConfirmed refunded ->
                row.finish("REFUND_PAYMENT", refunded.refunded() ? "COMPLETED" : "NOT_REQUIRED", at, null);
            case CompensationFailed failed -> {
                row.status = SagaStatus.COMPENSATION_FAILED.name();
                row.deadline = null;
                row.failureReason = failed.reason();
            }
            case SagaDiscarded discarded ->
                row.note("discarded by " + discarded.operator() + ": " + discarded.reason());
            case OrderConfirmed confirmed -> {
                row.finish("CONFIRM_ORDER", "COMPLETED", at, null);
                row.status = SagaStatus.CONFIRMED.name();
                row.deadline = null;
                completedAt = at;
            }
            case OrderCancelled cancelled -> {
                row.status = SagaStatus.CANCELLED.name();
                row.deadline = null;
                row.failureReason = cancelled.reason();
                completedAt = at;
            }
            default -> {
                return;
            }
        }
        jdbc.update(
                "update saga_view set status = ?, current_step = ?, steps = ?::jsonb, deadline = ?,"
                        + " failure_reason = ?, completed_at = coalesce(?, completed_at), updated_at = ?"
                        + " where saga_id = ?",
                row.status,
                row.steps.getLast().name(),
                json.writeValueAsString(row.steps),
                row.deadline == null ? null : Timestamp.from(row.deadline),
                row.failureReason,
                completedAt == null ? null : Timestamp.from(completedAt),
                Timestamp.from(at),
                sagaId);
        cache.invalidateAfterCommit(sagaId.toString());
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from saga_view");
        cache.clear();
    }

    private static final class Row {
        String status;
        final String currentStep;
        final List<Step> steps;
        Instant deadline;
        String failureReason;

        Row(String status, String currentStep, List<Step> steps, Instant deadline, String failureReason) {
            this.status = status;
            this.currentStep = currentStep;
            this.steps = steps;
            this.deadline = deadline;
            this.failureReason = failureReason;
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
