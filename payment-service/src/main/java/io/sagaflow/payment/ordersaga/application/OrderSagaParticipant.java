package io.sagaflow.payment.ordersaga.application;

import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.ordersaga.domain.OrderPayment;
import io.sagaflow.payment.ordersaga.domain.RefundDecision;
import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.domain.PaymentState;
import java.math.BigDecimal;
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
 *   <li>{@code StockReserved} (the inventory's, ADR 0055), like {@code PaymentRequested} (the order service's, from
 *       orders placed before ADR 0055): authorises the order's one payment (id {@link OrderPayment#paymentIdOf
 *       derived from the order}) of the order's total and so publishes {@code PaymentCaptured} or
 *       {@code PaymentDeclined}; if the payment exists already (a duplicate, or both requests of an order placed while
 *       the services were upgraded) nothing happens; if the order's refund was already requested it is declined with
 *       {@code ORDER_CANCELLED}, so money is never kept after a cancellation. A refund request may arrive first: it
 *       travels on the order's topics, the reservation on the inventory's, with no order between them.
 *   <li>{@code RefundRequested}: refunds the order's payment if it is captured ({@code PaymentRefunded}); otherwise
 *       (declined, already refunded, or none yet) answers {@code RefundNotRequired} on the order's refund stream,
 *       once.
 * </ul>
 *
 * Every request takes the order's lock first, so none interleave for one order, whichever replica or shard carries
 * them.
 */
@Component
public class OrderSagaParticipant implements EventHandler {

    /** The consumer name, under which processed events and checkpoints are recorded. */
    public static final String CONSUMER = "payment.order-saga";

    /** The events it handles; it never sees the others. */
    public static final Set<Class<?>> EVENT_TYPES =
            Set.of(StockReserved.class, PaymentRequested.class, RefundRequested.class);

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
            Charge charge = Charge.of(event.payload());
            UUID orderId = switch (event.payload()) {
                case RefundRequested requested -> requested.orderId();
                default -> charge == null ? null : charge.orderId();
            };
            if (orderId == null) {
                log.warn("ignoring {} without an order id or a total (event {})", event.type(), event.eventId());
            } else {
                if (charge != null && charge.customerId() != null) {
                    customerIds.add(charge.customerId());
                }
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
        PaymentService.Batch batch = payments.batch(
                orderIds.stream()
                        .flatMap(orderId -> OrderPayment.paymentIdsOf(orderId).stream())
                        .toList(),
                customerIds);
        for (EventEnvelope<Object> event : requests) {
            EventMetadata metadata = EventMetadata.causedBy(event);
            if (event.payload() instanceof RefundRequested requested) {
                refundRequested(requested, batch, refundAnswers, metadata);
            } else {
                charge(Charge.of(event.payload()), batch, refundAnswers, metadata);
            }
        }
        batch.append();
    }

    /**
     * What an order's payment is asked to charge, from either request: the inventory's {@code StockReserved} (ADR
     * 0055) or the order service's {@code PaymentRequested}.
     */
    private record Charge(UUID orderId, UUID customerId, BigDecimal amount) {

        /**
         * The charge {@code event} asks for; null if it asks for none: a refund request, or a {@code StockReserved}
         * recorded before ADR 0055 (without a total), whose order the order service asked to charge itself.
         */
        static Charge of(Object event) {
            return switch (event) {
                case StockReserved reserved
                when reserved.orderId() != null && reserved.total() != null ->
                    new Charge(reserved.orderId(), reserved.customerId(), reserved.total());
                case PaymentRequested requested
                when requested.orderId() != null ->
                    new Charge(requested.orderId(), requested.customerId(), requested.amount());
                default -> null;
            };
        }
    }

    private static void charge(
            Charge charge, PaymentService.Batch batch, Map<UUID, Long> refundAnswers, EventMetadata metadata) {
        UUID paymentId = sagaPaymentOf(charge.orderId(), batch);
        if (!(batch.state(paymentId) instanceof PaymentState.NotCreated)) {
            return;
        }
        boolean cancelled = refundAnswers.get(charge.orderId()) > 0;
        batch.authorise(
                paymentId,
                new NewPayment(charge.orderId(), charge.customerId(), charge.amount(), null, null),
                cancelled,
                metadata);
    }

    private static void refundRequested(
            RefundRequested request,
            PaymentService.Batch batch,
            Map<UUID, Long> refundAnswers,
            EventMetadata metadata) {
        PaymentState payment = batch.state(sagaPaymentOf(request.orderId(), batch));
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

    /**
     * The id of {@code orderId}'s saga payment in {@code batch}: the first of its possible ids that names a payment,
     * or the id a new one gets.
     */
    private static UUID sagaPaymentOf(UUID orderId, PaymentService.Batch batch) {
        List<UUID> ids = OrderPayment.paymentIdsOf(orderId);
        return ids.stream()
                .filter(id -> !(batch.state(id) instanceof PaymentState.NotCreated))
                .findFirst()
                .orElse(ids.getFirst());
    }

    private static UUID orderOf(String refundStream) {
        return UUID.fromString(refundStream.substring(OrderPayment.REFUND_STREAM.length()));
    }
}
