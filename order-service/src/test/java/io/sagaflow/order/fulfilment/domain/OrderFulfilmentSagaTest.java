package io.sagaflow.order.fulfilment.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.order.contracts.OrderCancelled;
import io.sagaflow.order.contracts.OrderConfirmed;
import io.sagaflow.order.contracts.OrderLine;
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
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The saga's steps and compensations, as given(history).on(message).expect(events). */
class OrderFulfilmentSagaTest {

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private static final Instant DEADLINE = NOW.plusSeconds(30);
    private static final Duration COMPENSATION_TIMEOUT = Duration.ofSeconds(15);
    private static final UUID ORDER = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID CUSTOMER = UUID.fromString("00000000-0000-0000-0000-00000000000c");
    private static final UUID PAYMENT = UUID.fromString("00000000-0000-0000-0000-00000000000f");
    private static final BigDecimal TOTAL = new BigDecimal("21.60");

    private final OrderFulfilmentSaga saga = new OrderFulfilmentSaga(COMPENSATION_TIMEOUT, 3);

    private static final OrderPlaced PLACED = new OrderPlaced(
            ORDER,
            CUSTOMER,
            List.of(new OrderLine(UUID.randomUUID(), 2, new BigDecimal("10.00"))),
            new BigDecimal("20.00"),
            new BigDecimal("1.60"),
            TOTAL,
            "1 Main St",
            DEADLINE);

    @Test
    void givenPlaced_whenPaymentCaptured_thenTheReservationItImpliesAndTheOrderAreConfirmed() {
        // Payment charges on inventory's reservation (ADR 0055): its answer is the saga's news of both.
        given(PLACED)
                .on(new PaymentWasCaptured(ORDER, PAYMENT, TOTAL))
                .expect(
                        new StockReservationConfirmed(ORDER),
                        new PaymentCaptureConfirmed(ORDER, PAYMENT, TOTAL),
                        new OrderConfirmed(ORDER))
                .status(SagaStatus.CONFIRMED);
    }

    @Test
    void givenAStockReservedMessageFromAnInboxOfBeforeAdr0055_thenPaymentRequestedAsThen() {
        given(PLACED)
                .on(new StockWasReserved(ORDER))
                .expect(new StockReservationConfirmed(ORDER), new PaymentRequested(ORDER, CUSTOMER, TOTAL))
                .status(SagaStatus.CHARGING_PAYMENT);
    }

    @Test
    void givenPaymentRequested_whenPaymentCaptured_thenOrderConfirmed() {
        given(PLACED, new StockReservationConfirmed(ORDER), new PaymentRequested(ORDER, CUSTOMER, TOTAL))
                .on(new PaymentWasCaptured(ORDER, PAYMENT, TOTAL))
                .expect(new PaymentCaptureConfirmed(ORDER, PAYMENT, TOTAL), new OrderConfirmed(ORDER))
                .status(SagaStatus.CONFIRMED);
    }

    @Test
    void givenPlaced_whenOutOfStock_thenCancelledWithNothingToUndo() {
        given(PLACED)
                .on(new StockWasNotReserved(ORDER, "OUT_OF_STOCK", "only 1 left"))
                .expect(
                        new StockReservationRejected(ORDER, "OUT_OF_STOCK", "only 1 left"),
                        new OrderCancelled(ORDER, "OUT_OF_STOCK", "only 1 left", "saga"))
                .status(SagaStatus.CANCELLED);
    }

    /** What a declined payment records, and the release it asks for. */
    private static final PaymentRejected DECLINED = new PaymentRejected(ORDER, "AMOUNT_ABOVE_LIMIT", "too much");

    private static final CompensationStarted RELEASE_AFTER_DECLINE = new CompensationStarted(
            ORDER, "AMOUNT_ABOVE_LIMIT", "too much", "saga", true, false, NOW.plus(COMPENSATION_TIMEOUT));
    private static final StockReleaseRequested RELEASE_REQUESTED = new StockReleaseRequested(ORDER, "too much");

    @Test
    void givenPlaced_whenDeclined_thenStockReleasedThenCancelled() {
        var compensating = given(PLACED)
                .on(new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "too much"))
                .expect(new StockReservationConfirmed(ORDER), DECLINED, RELEASE_AFTER_DECLINE, RELEASE_REQUESTED)
                .status(SagaStatus.COMPENSATING);
        compensating
                .on(new StockWasReleased(ORDER))
                .expect(
                        new StockReleaseConfirmed(ORDER),
                        new OrderCancelled(ORDER, "AMOUNT_ABOVE_LIMIT", "too much", "saga"))
                .status(SagaStatus.CANCELLED);
    }

    @Test
    void givenPaymentRequested_whenDeclined_thenStockReleasedThenCancelled() {
        given(PLACED, new StockReservationConfirmed(ORDER), new PaymentRequested(ORDER, CUSTOMER, TOTAL))
                .on(new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "too much"))
                .expect(DECLINED, RELEASE_AFTER_DECLINE, RELEASE_REQUESTED)
                .status(SagaStatus.COMPENSATING);
    }

    @Test
    void givenPlaced_whenDeadlinePasses_thenReleaseAndRefundRequested_forPaymentMayBeChargingOnTheReservation() {
        var compensating = given(PLACED)
                .on(new DeadlineReached(ORDER, DEADLINE))
                .expect(
                        new CompensationStarted(
                                ORDER,
                                "DEADLINE_EXCEEDED",
                                "No answer from inventory or payment by the deadline",
                                "saga",
                                true,
                                true,
                                NOW.plus(COMPENSATION_TIMEOUT)),
                        new StockReleaseRequested(ORDER, "No answer from inventory or payment by the deadline"),
                        new RefundRequested(ORDER, "No answer from inventory or payment by the deadline"));
        // Payment captured after all, then refunded: both compensations confirmed, the order is cancelled.
        compensating.on(new PaymentWasCaptured(ORDER, PAYMENT, TOTAL)).expectNothing();
        compensating
                .on(new PaymentWasSettled(ORDER, true))
                .on(new StockWasReleased(ORDER))
                .expect(
                        new StockReleaseConfirmed(ORDER),
                        new OrderCancelled(
                                ORDER,
                                "DEADLINE_EXCEEDED",
                                "No answer from inventory or payment by the deadline",
                                "saga"))
                .status(SagaStatus.CANCELLED);
    }

    @Test
    void givenPaymentRequested_whenDeadlinePasses_thenReleaseAndRefundRequested_andCancelledOnceBothConfirmed() {
        var compensating = given(
                        PLACED, new StockReservationConfirmed(ORDER), new PaymentRequested(ORDER, CUSTOMER, TOTAL))
                .on(new DeadlineReached(ORDER, DEADLINE));
        assertThat(compensating.decided)
                .hasSize(3)
                .hasAtLeastOneElementOfType(StockReleaseRequested.class)
                .hasAtLeastOneElementOfType(RefundRequested.class);
        var released = compensating.on(new StockWasReleased(ORDER));
        assertThat(released.decided).containsExactly(new StockReleaseConfirmed(ORDER));
        released.on(new PaymentWasSettled(ORDER, true))
                .expect(
                        new RefundConfirmed(ORDER, true),
                        new OrderCancelled(
                                ORDER, "DEADLINE_EXCEEDED", "No answer from payment by the deadline", "saga"))
                .status(SagaStatus.CANCELLED);
    }

    @Test
    void aStaleDeadlineOrALateAnswerChangesNothing() {
        given(PLACED).on(new DeadlineReached(ORDER, DEADLINE.minusSeconds(5))).expectNothing();
        var confirmed = given(
                PLACED,
                new StockReservationConfirmed(ORDER),
                new PaymentRequested(ORDER, CUSTOMER, TOTAL),
                new PaymentCaptureConfirmed(ORDER, PAYMENT, TOTAL),
                new OrderConfirmed(ORDER));
        confirmed.on(new StockWasReserved(ORDER)).expectNothing();
        confirmed.on(new PaymentWasCaptured(ORDER, PAYMENT, TOTAL)).expectNothing();
        confirmed.on(new PaymentWasDeclined(ORDER, "ORDER_CANCELLED", "late")).expectNothing();
        confirmed.on(new DeadlineReached(ORDER, DEADLINE)).expectNothing();
        confirmed
                .on(new CancellationRequested(ORDER, "changed my mind", "customer"))
                .expectNothing();
    }

    @Test
    void givenCompensating_whenCompensationDeadlinesPass_thenRetriedThenQuarantined_andOperatorCanDiscard() {
        Instant compensationDeadline = NOW.plus(COMPENSATION_TIMEOUT);
        var stage = given(
                PLACED,
                new CompensationStarted(ORDER, "DEADLINE_EXCEEDED", "late", "saga", true, false, compensationDeadline),
                new StockReleaseRequested(ORDER, "late"));
        var retried = stage.on(new DeadlineReached(ORDER, compensationDeadline))
                .expect(
                        new CompensationRetried(ORDER, 2, NOW.plus(COMPENSATION_TIMEOUT)),
                        new StockReleaseRequested(ORDER, "late"));
        var third = retried.on(new DeadlineReached(ORDER, compensationDeadline))
                .expect(
                        new CompensationRetried(ORDER, 3, NOW.plus(COMPENSATION_TIMEOUT)),
                        new StockReleaseRequested(ORDER, "late"));
        var quarantined = third.on(new DeadlineReached(ORDER, compensationDeadline))
                .expect(new CompensationFailed(ORDER, "Unconfirmed after 3 attempts: stock release"))
                .status(SagaStatus.COMPENSATION_FAILED);
        quarantined
                .on(new DiscardRequested(ORDER, "ops", "released by hand"))
                .expect(
                        new SagaDiscarded(ORDER, "ops", "released by hand"),
                        new OrderCancelled(
                                ORDER, "COMPENSATION_DISCARDED", "late (compensation discarded by ops)", "ops"))
                .status(SagaStatus.CANCELLED);
    }

    @Test
    void aQuarantinedSagaCanBeRetriedOrHealedByALateConfirmation() {
        var quarantined = given(
                PLACED,
                new CompensationStarted(ORDER, "DEADLINE_EXCEEDED", "late", "saga", true, false, DEADLINE),
                new StockReleaseRequested(ORDER, "late"),
                new CompensationFailed(ORDER, "Unconfirmed after 3 attempts: stock release"));
        quarantined
                .on(new CompensationRetryRequested(ORDER, "ops"))
                .expect(
                        new CompensationRetried(ORDER, 1, NOW.plus(COMPENSATION_TIMEOUT)),
                        new StockReleaseRequested(ORDER, "late"))
                .status(SagaStatus.COMPENSATING);
        quarantined
                .on(new StockWasReleased(ORDER))
                .expect(
                        new StockReleaseConfirmed(ORDER),
                        new OrderCancelled(ORDER, "DEADLINE_EXCEEDED", "late", "saga"))
                .status(SagaStatus.CANCELLED);
    }

    @Test
    void aCustomerCancellationBeforeConfirmationCompensates() {
        given(PLACED)
                .on(new CancellationRequested(ORDER, "changed my mind", "customer"))
                .expect(
                        new CompensationStarted(
                                ORDER,
                                "CANCELLED_BY_CUSTOMER",
                                "changed my mind",
                                "customer",
                                true,
                                true,
                                NOW.plus(COMPENSATION_TIMEOUT)),
                        new StockReleaseRequested(ORDER, "changed my mind"),
                        new RefundRequested(ORDER, "changed my mind"));
    }

    @Test
    void duplicateConfirmationsChangeNothing() {
        var compensating = given(
                PLACED,
                new CompensationStarted(ORDER, "X", "x", "saga", true, true, DEADLINE),
                new StockReleaseConfirmed(ORDER));
        compensating.on(new StockWasReleased(ORDER)).expectNothing();
    }

    /**
     * The saga feed keeps no processed-event records (ADR 0020): a redelivered event reaches the saga again once its
     * first delivery was handled. So every message the feed can deliver, on every path, must decide nothing the
     * second time.
     */
    @Test
    void everyMessageTheFeedDeliversDecidesNothingWhenHandledASecondTime() {
        List<List<SagaMessage>> journeys = List.of(
                List.of(new OrderWasPlaced(ORDER), new PaymentWasCaptured(ORDER, PAYMENT, TOTAL)),
                List.of(new OrderWasPlaced(ORDER), new StockWasNotReserved(ORDER, "OUT_OF_STOCK", "none left")),
                List.of(
                        new OrderWasPlaced(ORDER),
                        new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "too much"),
                        new StockWasReleased(ORDER)),
                List.of(
                        new OrderWasPlaced(ORDER),
                        new CancellationRequested(ORDER, "changed my mind", "customer"),
                        new PaymentWasCaptured(ORDER, PAYMENT, TOTAL),
                        new StockWasReleased(ORDER),
                        new PaymentWasSettled(ORDER, true)),
                List.of(
                        new OrderWasPlaced(ORDER),
                        new CancellationRequested(ORDER, "changed my mind", "customer"),
                        new PaymentWasSettled(ORDER, false),
                        new PaymentWasDeclined(ORDER, "ORDER_CANCELLED", "cancelled before the charge"),
                        new StockWasReleased(ORDER)),
                // From an inbox written before ADR 0055, when the saga asked payment itself.
                List.of(
                        new OrderWasPlaced(ORDER),
                        new StockWasReserved(ORDER),
                        new PaymentWasCaptured(ORDER, PAYMENT, TOTAL)),
                List.of(
                        new OrderWasPlaced(ORDER),
                        new StockWasReserved(ORDER),
                        new CancellationRequested(ORDER, "changed my mind", "customer"),
                        new StockWasReleased(ORDER),
                        new PaymentWasSettled(ORDER, true)));
        for (List<SagaMessage> journey : journeys) {
            List<DomainEvent> history = new ArrayList<>(List.of(PLACED));
            for (SagaMessage message : journey) {
                history.addAll(saga.on(saga.replay(history), message, NOW));
                assertThat(saga.on(saga.replay(history), message, NOW))
                        .as("%s handled again after %s", message, history)
                        .isEmpty();
            }
            assertThat(saga.replay(history).status())
                    .as("the journey %s ends the saga", journey)
                    .isIn(SagaStatus.CONFIRMED, SagaStatus.CANCELLED);
        }
    }

    /**
     * What lets the runner decide a message for a saga that ended without reading its stream (ADR 0094): a confirmed
     * or cancelled saga decides nothing whatever comes, and its status alone ({@link SagaState#ended}) decides as its
     * whole history does.
     */
    @Test
    void aConfirmedOrCancelledSagaDecidesNothingWhateverComes_onItsHistoryAsOnItsStatusAlone() {
        List<SagaMessage> everyKind = List.of(
                new OrderWasPlaced(ORDER),
                new StockWasReserved(ORDER),
                new StockWasNotReserved(ORDER, "OUT_OF_STOCK", "none left"),
                new StockWasReleased(ORDER),
                new PaymentWasCaptured(ORDER, PAYMENT, TOTAL),
                new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "too much"),
                new PaymentWasSettled(ORDER, true),
                new DeadlineReached(ORDER, DEADLINE),
                new CancellationRequested(ORDER, "changed my mind", "customer"),
                new CompensationRetryRequested(ORDER, "operator"),
                new DiscardRequested(ORDER, "operator", "written off"));
        assertThat(everyKind.stream().map(Object::getClass).distinct())
                .as("one message of every kind")
                .containsExactlyInAnyOrder(SagaMessage.class.getPermittedSubclasses());
        List<List<DomainEvent>> endings = List.of(
                given(PLACED).on(new PaymentWasCaptured(ORDER, PAYMENT, TOTAL)).history,
                given(PLACED).on(new StockWasNotReserved(ORDER, "OUT_OF_STOCK", "none left")).history,
                given(PLACED)
                        .on(new PaymentWasDeclined(ORDER, "AMOUNT_ABOVE_LIMIT", "too much"))
                        .on(new StockWasReleased(ORDER))
                        .history,
                given(PLACED)
                        .on(new CancellationRequested(ORDER, "changed my mind", "customer"))
                        .on(new StockWasReleased(ORDER))
                        .on(new PaymentWasSettled(ORDER, true))
                        .history);
        for (List<DomainEvent> history : endings) {
            SagaState whole = saga.replay(history);
            assertThat(whole.status().isFinal()).as("%s ends the saga", history).isTrue();
            SagaState statusAlone = SagaState.ended(ORDER, whole.status());
            for (SagaMessage message : everyKind) {
                assertThat(saga.on(whole, message, NOW))
                        .as("%s after %s", message, history)
                        .isEmpty();
                assertThat(saga.on(statusAlone, message, NOW))
                        .as("%s on %s alone", message, whole.status())
                        .isEmpty();
            }
        }
        assertThat(SagaStatus.COMPENSATION_FAILED.isFinal())
                .as("a quarantined saga still takes an operator's hand")
                .isFalse();
    }

    private Given given(DomainEvent... history) {
        return new Given(List.of(history));
    }

    private final class Given {
        final List<DomainEvent> history;
        List<DomainEvent> decided = List.of();

        Given(List<DomainEvent> history) {
            this.history = history;
        }

        SagaState state() {
            return saga.replay(history);
        }

        Given on(SagaMessage message) {
            List<DomainEvent> events = saga.on(state(), message, NOW);
            List<DomainEvent> after = new ArrayList<>(history);
            after.addAll(events);
            Given next = new Given(after);
            next.decided = events;
            return next;
        }

        Given expect(DomainEvent... events) {
            assertThat(decided).containsExactly(events);
            return this;
        }

        void expectNothing() {
            assertThat(decided).isEmpty();
        }

        Given status(SagaStatus status) {
            assertThat(state().status()).isEqualTo(status);
            return this;
        }
    }
}
