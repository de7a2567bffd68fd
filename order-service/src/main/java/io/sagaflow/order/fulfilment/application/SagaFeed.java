package io.sagaflow.order.fulfilment.application;

import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.inventory.contracts.StockReleased;
import io.sagaflow.inventory.contracts.StockReservationFailed;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.order.ordering.domain.OrderCancellationRequested;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.contracts.PaymentDeclined;
import io.sagaflow.payment.contracts.PaymentRefunded;
import io.sagaflow.payment.contracts.RefundNotRequired;
import java.util.Set;

/**
 * Consumer {@code order.saga}: turns the events sagas react to (the order's cancellation requests, inventory's and
 * payment's answers) into saga messages in the inbox, keyed by event id. The order's own {@code OrderPlaced} is not
 * among them: it already asks inventory to reserve, and the placement armed the saga's deadline before it committed
 * (ADR 0033), so the saga has nothing to do about it. Nor is inventory's {@code StockReserved}: payment charges on it
 * and the saga hears of the reservation with payment's answer (ADR 0055). It keeps no processed-event records
 * ({@code Deduplication.BY_HANDLER}, ADR 0020): a delivery repeated while the first waits in the inbox adds nothing
 * (the put is {@code putIfAbsent} under the event id), and one repeated after the saga handled the first replays a
 * state that already holds its effect, so the saga decides nothing ({@code OrderFulfilmentSagaTest}).
 */
public class SagaFeed implements EventHandler {

    /** The consumer's name. */
    public static final String CONSUMER = "order.saga";

    /** The events that can mean a saga message; it never sees the others. */
    public static final Set<Class<?>> EVENT_TYPES = Set.of(
            OrderCancellationRequested.class,
            StockReservationFailed.class,
            StockReleased.class,
            PaymentCaptured.class,
            PaymentDeclined.class,
            PaymentRefunded.class,
            RefundNotRequired.class);

    private final SagaInbox inbox;

    public SagaFeed(SagaInbox inbox) {
        this.inbox = inbox;
    }

    /** The saga message an event means, or null if sagas do not care. */
    static SagaMessage toMessage(Object event) {
        return switch (event) {
            case OrderCancellationRequested cancel ->
                new SagaMessage.CancellationRequested(cancel.orderId(), cancel.reason(), cancel.cancelledBy());
            case StockReservationFailed failed ->
                new SagaMessage.StockWasNotReserved(failed.orderId(), failed.code(), failed.reason());
            case StockReleased released -> new SagaMessage.StockWasReleased(released.orderId());
            // Only the saga's own payment answers it; payments made directly through the API do not.
            case PaymentCaptured captured
            when isSagaPayment(captured.orderId(), captured.paymentId()) ->
                new SagaMessage.PaymentWasCaptured(captured.orderId(), captured.paymentId(), captured.amount());
            case PaymentDeclined declined
            when isSagaPayment(declined.orderId(), declined.paymentId()) ->
                new SagaMessage.PaymentWasDeclined(declined.orderId(), declined.code(), declined.reason());
            case PaymentRefunded refunded -> new SagaMessage.PaymentWasSettled(refunded.orderId(), true);
            case RefundNotRequired none -> new SagaMessage.PaymentWasSettled(none.orderId(), false);
            default -> null;
        };
    }

    private static boolean isSagaPayment(java.util.UUID orderId, java.util.UUID paymentId) {
        return PaymentContracts.isSagaPaymentOf(orderId, paymentId);
    }

    @Override
    public void handle(EventEnvelope<Object> event) {
        SagaMessage message = toMessage(event.payload());
        if (message != null) {
            inbox.add(
                    event.eventId().toString(),
                    message.orderId(),
                    SagaInboxEntry.of(message, EventMetadata.causedBy(event)));
        }
    }
}
