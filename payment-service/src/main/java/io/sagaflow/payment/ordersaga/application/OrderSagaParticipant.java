package io.sagaflow.payment.ordersaga.application;

import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.ordersaga.domain.OrderPayment;
import io.sagaflow.payment.ordersaga.domain.RefundDecision;
import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.domain.PaymentState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
        handleAll(List.of(event));
    }

    /**
     * Handles the requests among {@code events} together, in their order: their orders' locks in one statement, the
     * orders' payment and refund streams read in one query each, the customers' credit rows locked in one, and
     * everything decided appended in one (ADR 0022).
     */
    @Override
    public void handleAll(List<EventEnvelope<Object>> events) {
        List<EventEnvelope<Object>> requests = new ArrayList<>(events.size());
        Set<UUID> orderIds = new LinkedHashSet<>();
        Set<UUID> customerIds = new HashSet<>();
        for (EventEnvelope<Object> event : events) {
            UUID orderId = switch (event.payload()) {
                case PaymentRequested requested -> {
                    if (requested.customerId() != null) {
                        customerIds.add(requested.customerId());
                    }
                    yield requested.orderId();
                }
                case RefundRequested requested -> requested.orderId();
                default -> null; // Not among EVENT_TYPES: not delivered.
            };
            if (orderId == null) {
                log.warn("ignoring {} without an order id (event {})", event.type(), event.eventId());
            } else {
                requests.add(event);
                orderIds.add(orderId);
            }
        }
        if (requests.isEmpty()) {
            return;
        }
        orders.lockUntilCommit(orderIds);
        Map<UUID, Long> refundAnswers = new HashMap<>();
        this.events
                .readStreams(orderIds.stream().map(OrderPayment::refundStreamOf).toList())
                .forEach((stream, answered) -> refundAnswers.put(orderOf(stream), (long) answered.size()));
        PaymentService.Batch batch =
                payments.batch(orderIds.stream().map(OrderPayment::paymentIdOf).toList(), customerIds);
        for (EventEnvelope<Object> event : requests) {
            EventMetadata metadata = EventMetadata.causedBy(event);
            switch (event.payload()) {
                case PaymentRequested requested -> paymentRequested(requested, batch, refundAnswers, metadata);
                case RefundRequested requested -> refundRequested(requested, batch, refundAnswers, metadata);
                default -> {
                    // filtered above
                }
            }
        }
        batch.append();
    }

    private static void paymentRequested(
            PaymentRequested request,
            PaymentService.Batch batch,
            Map<UUID, Long> refundAnswers,
            EventMetadata metadata) {
        UUID paymentId = OrderPayment.paymentIdOf(request.orderId());
        if (!(batch.state(paymentId) instanceof PaymentState.NotCreated)) {
            return;
        }
        boolean cancelled = refundAnswers.get(request.orderId()) > 0;
        batch.authorise(
                paymentId,
                new NewPayment(request.orderId(), request.customerId(), request.amount(), null, null),
                cancelled,
                metadata);
    }

    private static void refundRequested(
            RefundRequested request,
            PaymentService.Batch batch,
            Map<UUID, Long> refundAnswers,
            EventMetadata metadata) {
        PaymentState payment = batch.state(OrderPayment.paymentIdOf(request.orderId()));
        switch (RefundDecision.on(request, payment)) {
            case RefundDecision.Refund refund -> batch.refund(refund.command(), metadata);
            case RefundDecision.NotRequired notRequired -> {
                if (refundAnswers.get(request.orderId()) == 0) {
                    batch.add(new StreamAppend(
                            OrderPayment.refundStreamOf(request.orderId()),
                            ExpectedVersion.noStream(),
                            List.of(notRequired.answer()),
                            metadata));
                    refundAnswers.put(request.orderId(), 1L);
                }
            }
        }
    }

    private static UUID orderOf(String refundStream) {
        return UUID.fromString(refundStream.substring(OrderPayment.REFUND_STREAM.length()));
    }
}
