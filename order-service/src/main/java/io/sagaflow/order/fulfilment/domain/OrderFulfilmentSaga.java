package io.sagaflow.order.fulfilment.domain;

import static io.sagaflow.order.fulfilment.domain.SagaStatus.CANCELLED;
import static io.sagaflow.order.fulfilment.domain.SagaStatus.CHARGING_PAYMENT;
import static io.sagaflow.order.fulfilment.domain.SagaStatus.COMPENSATING;
import static io.sagaflow.order.fulfilment.domain.SagaStatus.COMPENSATION_FAILED;
import static io.sagaflow.order.fulfilment.domain.SagaStatus.CONFIRMED;
import static io.sagaflow.order.fulfilment.domain.SagaStatus.RESERVING_STOCK;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.order.contracts.StockReleaseRequested;
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
import io.sagaflow.order.fulfilment.domain.SagaMessage.CancellationRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.CompensationRetryRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.DeadlineReached;
import io.sagaflow.order.fulfilment.domain.SagaMessage.DiscardRequested;
import io.sagaflow.order.fulfilment.domain.SagaMessage.OrderWasPlaced;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasCaptured;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasDeclined;
import io.sagaflow.order.fulfilment.domain.SagaMessage.PaymentWasSettled;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasNotReserved;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasReleased;
import io.sagaflow.order.fulfilment.domain.SagaMessage.StockWasReserved;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The order fulfilment saga, top to bottom.
 *
 * <ol>
 *   <li>The order is placed (PENDING): inventory reserves its lines.
 *   <li>Inventory reserved every line: payment charges the total, on inventory's answer itself (ADR 0055), so the saga
 *       hears next from payment. Inventory reserved nothing: the order is cancelled, with nothing to undo.
 *   <li>Payment captured the total: the order is confirmed (payment's answer says that the stock was reserved too).
 *       Payment declined: the stock is released, then the order is cancelled.
 *   <li>Confirmed.
 * </ol>
 *
 * A deadline or a customer's cancellation before step 4 compensates whatever may have been done: the stock is
 * released (inventory answers even if it reserved nothing) and the payment refunded (payment answers even if it
 * charged nothing). The order is cancelled once every compensation is confirmed. Compensations unconfirmed by their
 * own deadline are requested again, up to {@code maxCompensationAttempts}; then the saga is quarantined
 * (COMPENSATION_FAILED) for an operator to retry or discard. Late answers after a compensation started change
 * nothing: the compensation requests already cover them. Inventory meets an order's release after its placement (one
 * topic family); payment may meet the refund request before the reservation it would charge on (two families), and
 * then declines that charge.
 *
 * <p>Pure: {@link #on} decides which events to record, {@link #evolve} folds them into the state.
 */
public final class OrderFulfilmentSaga {

    /** Who the saga names as the canceller when a failure or deadline cancels an order. */
    public static final String SAGA = "saga";

    private final Duration compensationTimeout;
    private final int maxCompensationAttempts;

    public OrderFulfilmentSaga(Duration compensationTimeout, int maxCompensationAttempts) {
        this.compensationTimeout = compensationTimeout;
        this.maxCompensationAttempts = maxCompensationAttempts;
    }

    /** The events {@code message} causes in {@code saga} at {@code now}; empty when it changes nothing. */
    public List<DomainEvent> on(SagaState saga, SagaMessage message, Instant now) {
        if (!saga.exists()) {
            return List.of();
        }
        UUID order = saga.orderId();
        return switch (message) {
            // 1. Placed: the order's own OrderPlaced already asked inventory to reserve, and the placement armed the
            // deadline.
            case OrderWasPlaced placed -> List.of();

            // 2. Stock reserved: payment charges on inventory's answer (ADR 0055), and the feed does not take it.
            // Only a saga inbox written before ADR 0055 may still hold one: the saga asks payment as it did then,
            // and payment charges an order once, whichever request reaches it first.
            case StockWasReserved reserved
            when saga.is(RESERVING_STOCK) ->
                List.of(
                        new StockReservationConfirmed(order),
                        new PaymentRequested(order, saga.customerId(), saga.total()));
            case StockWasReserved lateReservation -> List.of();

            // 2. Nothing reserved: cancel, nothing to undo.
            case StockWasNotReserved rejected
            when saga.is(RESERVING_STOCK) ->
                List.of(
                        new StockReservationRejected(order, rejected.code(), rejected.reason()),
                        new OrderCancelled(order, rejected.code(), rejected.reason(), SAGA));
            case StockWasNotReserved lateRejection -> List.of();

            // 3. Payment captured: confirm. Payment charges only reserved orders, so its answer is also the saga's news
            // that the stock was reserved.
            case PaymentWasCaptured captured
            when saga.is(RESERVING_STOCK) || saga.is(CHARGING_PAYMENT) -> {
                List<DomainEvent> events = new ArrayList<>(reserved(saga));
                events.add(new PaymentCaptureConfirmed(order, captured.paymentId(), captured.amount()));
                events.add(new OrderConfirmed(order));
                yield events;
            }
            case PaymentWasCaptured lateCapture -> List.of();

            // 3. Payment declined: release the stock, then cancel.
            case PaymentWasDeclined declined
            when saga.is(RESERVING_STOCK) || saga.is(CHARGING_PAYMENT) -> {
                List<DomainEvent> events = new ArrayList<>(reserved(saga));
                events.add(new PaymentRejected(order, declined.code(), declined.reason()));
                events.addAll(compensate(saga, declined.code(), declined.reason(), SAGA, false, now));
                yield events;
            }
            case PaymentWasDeclined lateDecline -> List.of();

            // Deadline before step 4: undo whatever may have been done. Payment may be charging even before the saga
            // heard of the reservation, so its refund is requested too.
            // A timer armed for an earlier deadline (compared to the millisecond: timers may be re-armed from the
            // view).
            case DeadlineReached deadline
            when saga.deadline() == null
                    || deadline.deadline().toEpochMilli() != saga.deadline().toEpochMilli() -> List.of();
            case DeadlineReached deadline
            when saga.is(RESERVING_STOCK) || saga.is(CHARGING_PAYMENT) ->
                compensate(
                        saga,
                        "DEADLINE_EXCEEDED",
                        "No answer from " + (saga.is(RESERVING_STOCK) ? "inventory or payment" : "payment")
                                + " by the deadline",
                        SAGA,
                        true,
                        now);
            // Compensation unconfirmed by its deadline: ask again, or quarantine.
            case DeadlineReached deadline
            when saga.is(COMPENSATING) ->
                saga.compensationAttempts() < maxCompensationAttempts
                        ? retry(saga, saga.compensationAttempts() + 1, now)
                        : List.of(new SagaFact.CompensationFailed(order, outstanding(saga)));
            case DeadlineReached lateDeadline -> List.of();

            // The customer cancels before step 4: undo as for a deadline.
            case CancellationRequested cancel
            when saga.is(RESERVING_STOCK) || saga.is(CHARGING_PAYMENT) ->
                compensate(saga, "CANCELLED_BY_CUSTOMER", cancel.reason(), cancel.cancelledBy(), true, now);
            case CancellationRequested tooLate -> List.of();

            // Compensations confirmed: cancel once all are in (also heals a quarantined saga).
            case StockWasReleased released
            when (saga.is(COMPENSATING) || saga.is(COMPENSATION_FAILED))
                    && saga.releaseRequested()
                    && !saga.releaseConfirmed() -> {
                List<DomainEvent> events = new ArrayList<>(List.of(new StockReleaseConfirmed(order)));
                if (!saga.refundRequested() || saga.refundConfirmed()) {
                    events.add(cancelled(saga));
                }
                yield events;
            }
            case StockWasReleased duplicateRelease -> List.of();
            case PaymentWasSettled settled
            when (saga.is(COMPENSATING) || saga.is(COMPENSATION_FAILED))
                    && saga.refundRequested()
                    && !saga.refundConfirmed() -> {
                List<DomainEvent> events = new ArrayList<>(List.of(new RefundConfirmed(order, settled.refunded())));
                if (!saga.releaseRequested() || saga.releaseConfirmed()) {
                    events.add(cancelled(saga));
                }
                yield events;
            }
            case PaymentWasSettled duplicateSettlement -> List.of();

            // An operator's hand on a quarantined saga.
            case CompensationRetryRequested retry when saga.is(COMPENSATION_FAILED) -> retry(saga, 1, now);
            case CompensationRetryRequested notQuarantined -> List.of();
            case DiscardRequested discard
            when saga.is(COMPENSATION_FAILED) ->
                List.of(
                        new SagaDiscarded(order, discard.operator(), discard.reason()),
                        new OrderCancelled(
                                order,
                                "COMPENSATION_DISCARDED",
                                saga.cancelReason() + " (compensation discarded by " + discard.operator() + ")",
                                discard.operator()));
            case DiscardRequested notQuarantined -> List.of();
        };
    }

    private List<DomainEvent> compensate(
            SagaState saga, String code, String reason, String requestedBy, boolean refund, Instant now) {
        UUID order = saga.orderId();
        List<DomainEvent> events = new ArrayList<>();
        events.add(
                new CompensationStarted(order, code, reason, requestedBy, true, refund, now.plus(compensationTimeout)));
        events.add(new StockReleaseRequested(order, reason));
        if (refund) {
            events.add(new RefundRequested(order, reason));
        }
        return events;
    }

    /** The reservation the saga learns of from payment's answer, unless it heard of it before (a pre-ADR 0055 saga). */
    private static List<DomainEvent> reserved(SagaState saga) {
        return saga.is(RESERVING_STOCK) ? List.of(new StockReservationConfirmed(saga.orderId())) : List.of();
    }

    private List<DomainEvent> retry(SagaState saga, int attempt, Instant now) {
        UUID order = saga.orderId();
        List<DomainEvent> events = new ArrayList<>();
        events.add(new CompensationRetried(order, attempt, now.plus(compensationTimeout)));
        if (saga.releaseRequested() && !saga.releaseConfirmed()) {
            events.add(new StockReleaseRequested(order, saga.cancelReason()));
        }
        if (saga.refundRequested() && !saga.refundConfirmed()) {
            events.add(new RefundRequested(order, saga.cancelReason()));
        }
        return events;
    }

    private static OrderCancelled cancelled(SagaState saga) {
        return new OrderCancelled(saga.orderId(), saga.cancelCode(), saga.cancelReason(), saga.cancelledBy());
    }

    private static String outstanding(SagaState saga) {
        List<String> missing = new ArrayList<>();
        if (saga.releaseRequested() && !saga.releaseConfirmed()) {
            missing.add("stock release");
        }
        if (saga.refundRequested() && !saga.refundConfirmed()) {
            missing.add("refund");
        }
        return "Unconfirmed after " + saga.compensationAttempts() + " attempts: " + String.join(", ", missing);
    }

    /** The saga after {@code event}; events it does not track leave it unchanged. */
    public SagaState evolve(SagaState s, Object event) {
        return switch (event) {
            case OrderPlaced placed ->
                new SagaState(
                        placed.orderId(),
                        placed.customerId(),
                        placed.total(),
                        RESERVING_STOCK,
                        placed.deadline(),
                        false,
                        false,
                        false,
                        false,
                        false,
                        false,
                        0,
                        null,
                        null,
                        null,
                        null);
            case StockReservationConfirmed confirmed ->
                s.change().status(CHARGING_PAYMENT).stockReserved().build();
            case PaymentRequested requested -> s.change().paymentRequested().build();
            case StockReservationRejected rejected ->
                s.change()
                        .cancellation(rejected.code(), rejected.reason(), SAGA)
                        .build();
            case OrderConfirmed confirmed -> s.change().status(CONFIRMED).build();
            case CompensationStarted started ->
                s.change()
                        .status(COMPENSATING)
                        .deadline(started.deadline())
                        .compensating(started.releaseStock(), started.refundPayment(), 1)
                        .cancellation(started.code(), started.reason(), started.requestedBy())
                        .build();
            case CompensationRetried retried ->
                s.change()
                        .status(COMPENSATING)
                        .deadline(retried.deadline())
                        .attempt(retried.attempt())
                        .build();
            case StockReleaseConfirmed released -> s.change().releaseConfirmed().build();
            case RefundConfirmed refunded -> s.change().refundConfirmed().build();
            case CompensationFailed failed ->
                s.change()
                        .status(COMPENSATION_FAILED)
                        .deadline(null)
                        .failure(failed.reason())
                        .build();
            case OrderCancelled cancelled ->
                s.change()
                        .status(CANCELLED)
                        .deadline(null)
                        .cancellation(cancelled.code(), cancelled.reason(), cancelled.cancelledBy())
                        .build();
            // Facts that only the views show (PaymentCaptureConfirmed, PaymentRejected, SagaDiscarded), the
            // compensation requests and the order's other events leave the saga as it is.
            default -> s;
        };
    }

    /** Folds {@code events} from nothing. */
    public SagaState replay(List<?> events) {
        SagaState state = SagaState.NONE;
        for (Object event : events) {
            state = evolve(state, event);
        }
        return state;
    }
}
