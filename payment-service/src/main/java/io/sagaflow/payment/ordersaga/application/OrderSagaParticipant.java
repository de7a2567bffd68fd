package io.sagaflow.payment.ordersaga.application;

import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.ordersaga.domain.OrderPayment;
import io.sagaflow.payment.ordersaga.domain.RefundDecision;
import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.domain.PaymentState;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The payment step of the order saga, run by consumer {@value #CONSUMER} inside the idempotent consumer's
 * transaction (so each event's effects commit exactly once).
 *
 * <ul>
 *   <li>{@code PaymentRequested}: authorises the order's one payment (id {@link OrderPayment#paymentIdOf derived from
 *       the order}) and so publishes {@code PaymentCaptured} or {@code PaymentDeclined}; if the payment exists already
 *       (a duplicate request) nothing happens; if the order's refund was already requested it is declined with
 *       {@code ORDER_CANCELLED}, so money is never kept after a cancellation.
 *   <li>{@code RefundRequested}: refunds the order's payment if it is captured ({@code PaymentRefunded}); otherwise
 *       (declined, already refunded, or none yet) answers {@code RefundNotRequired} on the order's refund stream,
 *       once.
 * </ul>
 *
 * Both take the order's lock first, so they never interleave for one order, whichever replica or shard carries them.
 */
@Component
public class OrderSagaParticipant implements EventHandler {

    /** The consumer name, under which processed events and checkpoints are recorded. */
    public static final String CONSUMER = "payment.order-saga";

    /** The events it handles; it never sees the others. */
    public static final Set<Class<?>> EVENT_TYPES = Set.of(PaymentRequested.class, RefundRequested.class);

    private static final Logger log = LoggerFactory.getLogger(OrderSagaParticipant.class);

    private final PaymentService payments;
    private final EventStore events;
    private final OrderLock orders;

    public OrderSagaParticipant(PaymentService payments, EventStore events, OrderLock orders) {
        this.payments = payments;
        this.events = events;
        this.orders = orders;
    }

    @Override
    public void handle(EventEnvelope<Object> event) {
        switch (event.payload()) {
            case PaymentRequested requested -> paymentRequested(requested, EventMetadata.causedBy(event));
            case RefundRequested requested -> refundRequested(requested, EventMetadata.causedBy(event));
            default -> {
                // Not among EVENT_TYPES: not delivered.
            }
        }
    }

    private void paymentRequested(PaymentRequested request, EventMetadata metadata) {
        if (request.orderId() == null) {
            log.warn("ignoring PaymentRequested without an order id (event {})", metadata.causationId());
            return;
        }
        orders.lockUntilCommit(request.orderId());
        UUID paymentId = OrderPayment.paymentIdOf(request.orderId());
        if (!(payments.load(paymentId) instanceof PaymentState.NotCreated)) {
            return;
        }
        boolean cancelled = events.currentVersion(OrderPayment.refundStreamOf(request.orderId())) > 0;
        payments.authorise(
                paymentId,
                new NewPayment(request.orderId(), request.customerId(), request.amount(), null, null),
                cancelled,
                metadata);
    }

    private void refundRequested(RefundRequested request, EventMetadata metadata) {
        if (request.orderId() == null) {
            log.warn("ignoring RefundRequested without an order id (event {})", metadata.causationId());
            return;
        }
        orders.lockUntilCommit(request.orderId());
        PaymentState payment = payments.load(OrderPayment.paymentIdOf(request.orderId()));
        switch (RefundDecision.on(request, payment)) {
            case RefundDecision.Refund refund -> payments.refund(refund.command(), metadata);
            case RefundDecision.NotRequired notRequired -> {
                String stream = OrderPayment.refundStreamOf(request.orderId());
                if (events.currentVersion(stream) == 0) {
                    events.append(stream, ExpectedVersion.noStream(), List.of(notRequired.answer()), metadata);
                }
            }
        }
    }
}
