package io.sagaflow.payment.ordersaga;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.payment.OrderServiceOutbox;
import io.sagaflow.payment.TestHttp;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.ordersaga.application.OrderSagaParticipant;
import io.sagaflow.payment.ordersaga.domain.OrderPayment;
import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.application.PaymentService;
import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The saga participation end to end: order contract events go onto the real shared topic as the order service's
 * outbox would publish them, and the payment service's answers are checked in its event store, its outbox and on the
 * topic itself.
 */
@SagaflowIntegrationTest
class OrderSagaParticipationIT {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @Value("${local.server.port}")
    int port;

    @Autowired
    ReliableTopicEventBus bus;

    @Autowired
    EventSerializer serializer;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    OrderSagaParticipant participant;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    PaymentService payments;

    private OrderServiceOutbox orderService;
    private final Queue<EventMessage> publishedByPayment = new ConcurrentLinkedQueue<>();
    private Subscription observer;

    @BeforeEach
    void observeTheTopic() {
        orderService = new OrderServiceOutbox(bus, serializer);
        observer = bus.subscribe(
                "test-observer-" + UUID.randomUUID(),
                Set.of(PaymentContracts.PUBLISHER),
                new InMemoryCheckpoints(),
                publishedByPayment::add);
    }

    @AfterEach
    void stopObserving() {
        observer.cancel();
    }

    @Test
    void aPaymentRequestDeliveredTwiceAndRequestedAgainIsCapturedAndPublishedOnce() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        EventMessage request = orderService.message(order, 3, new PaymentRequested(order, customer, amount("250")));
        EventMessage requestedAgain =
                orderService.message(order, 4, new PaymentRequested(order, customer, amount("250")));

        orderService.publish(request);
        orderService.publish(request);
        orderService.publish(requestedAgain);

        awaitProcessed(request, requestedAgain);
        String stream = paymentStream(order);
        assertThat(types(stream)).containsExactly("PaymentInitiated", "PaymentCaptured");
        assertPublishedOnce("PaymentCaptured", stream);
        Map<String, Object> captured = jdbc.queryForMap(
                "select causation_id, correlation_id from es_event where stream_id = ? and type = 'PaymentCaptured'",
                stream);
        assertThat(captured.get("causation_id")).isEqualTo(request.eventId());
        assertThat(captured.get("correlation_id")).isEqualTo(request.correlationId());

        JsonNode payment = new TestHttp(port)
                .get("/api/payments/" + OrderPayment.paymentIdOf(order))
                .json();
        assertThat(payment.get("status").asString()).isEqualTo("CAPTURED");
        assertThat(payment.get("customerId").asString()).isEqualTo(customer.toString());
        assertThat(payment.get("amount").decimalValue()).isEqualByComparingTo("250.00");
        assertThat(outstanding(customer)).isEqualByComparingTo("250.00");
    }

    @Test
    void theInventorysReservationChargesTheOrderTotalOnce_andAPaymentRequestOfTheSameOrderChangesNothing() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        EventMessage reserved = orderService.reservation(order, 1, reserved(order, customer, "123.45"));
        EventMessage requested =
                orderService.message(order, 3, new PaymentRequested(order, customer, amount("123.45")));

        // The reservation and the request come on different topics, whose relative order is not kept: the request
        // is sent only once the reservation has been handled, as the saga would send it.
        orderService.publish(reserved, reserved);
        awaitProcessed(reserved);
        orderService.publish(requested);

        awaitProcessed(reserved, requested);
        String stream = paymentStream(order);
        assertThat(types(stream)).containsExactly("PaymentInitiated", "PaymentCaptured");
        EventMessage captured = assertPublishedOnce("PaymentCaptured", stream);
        assertThat(captured.causationId()).isEqualTo(reserved.eventId());
        assertThat(captured.correlationId()).isEqualTo(reserved.correlationId());
        assertThat(captured.payload()).contains("123.45");
        assertThat(outstanding(customer)).isEqualByComparingTo("123.45");
    }

    @Test
    void aRefundRequestThatOvertakesTheReservation_isAnsweredAndTheReservationThenDeclinedOrderCancelled() {
        // The refund travels on the order's topics, the reservation on the inventory's: no order between them.
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        EventMessage refund = orderService.message(order, 3, new RefundRequested(order, "deadline passed"));
        EventMessage lateReservation = orderService.reservation(order, 1, reserved(order, customer, "99"));

        orderService.publish(refund);
        awaitProcessed(refund);
        orderService.publish(lateReservation);
        awaitProcessed(lateReservation);

        assertThat(types(OrderPayment.refundStreamOf(order))).containsExactly("RefundNotRequired");
        assertThat(types(paymentStream(order))).containsExactly("PaymentInitiated", "PaymentDeclined");
        EventMessage declined = assertPublishedOnce("PaymentDeclined", paymentStream(order));
        assertThat(declined.payload()).contains("\"code\":\"ORDER_CANCELLED\"");
        assertThat(outstanding(customer)).isEqualByComparingTo("0.00");
    }

    @Test
    void aTimeOrderedOrdersPaymentThatAnOlderReplicaMadeUnderTheNameBasedId_isNotChargedAgainAndIsRefunded() {
        // ADR 0064: during a rolling upgrade, a replica built before it gives the saga's payment the name-based id.
        UUID order = TimeOrderedIds.next();
        UUID customer = UUID.randomUUID();
        UUID named = UUID.nameUUIDFromBytes(("payment:" + order).getBytes(StandardCharsets.UTF_8));
        payments.authorise(
                named, new NewPayment(order, customer, amount("42.00"), null, null), false, EventMetadata.newFlow());
        EventMessage reserved = orderService.reservation(order, 1, reserved(order, customer, "42.00"));
        EventMessage refund = orderService.message(order, 3, new RefundRequested(order, "stock lost"));

        orderService.publish(reserved);
        awaitProcessed(reserved);
        orderService.publish(refund);
        awaitProcessed(refund);

        assertThat(types(paymentStream(order))).isEmpty();
        assertThat(types("payment-" + named)).containsExactly("PaymentInitiated", "PaymentCaptured", "PaymentRefunded");
        assertThat(types(OrderPayment.refundStreamOf(order))).isEmpty();
        assertThat(outstanding(customer)).isEqualByComparingTo("0.00");
    }

    @Test
    void aPaymentRequestAboveTheLimitIsDeclinedAndPublishedOnce() {
        UUID order = UUID.randomUUID();
        EventMessage request =
                orderService.message(order, 3, new PaymentRequested(order, UUID.randomUUID(), amount("10000.01")));

        orderService.publish(request, request);

        awaitProcessed(request);
        String stream = paymentStream(order);
        assertThat(types(stream)).containsExactly("PaymentInitiated", "PaymentDeclined");
        EventMessage declined = assertPublishedOnce("PaymentDeclined", stream);
        assertThat(declined.payload()).contains("\"code\":\"AMOUNT_ABOVE_LIMIT\"");
        assertThat(declined.causationId()).isEqualTo(request.eventId());
    }

    @Test
    void aRefundRequestRefundsTheCapturedPaymentOnceAndALaterOneIsAnsweredNotRequired() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        EventMessage request = orderService.message(order, 3, new PaymentRequested(order, customer, amount("80.10")));
        EventMessage refund = orderService.message(order, 4, new RefundRequested(order, "stock lost"));
        EventMessage refundAgain = orderService.message(order, 5, new RefundRequested(order, "stock lost"));

        orderService.publish(request, refund);
        orderService.publish(refund);
        awaitProcessed(request, refund);

        String stream = paymentStream(order);
        assertThat(types(stream)).containsExactly("PaymentInitiated", "PaymentCaptured", "PaymentRefunded");
        EventMessage refunded = assertPublishedOnce("PaymentRefunded", stream);
        assertThat(refunded.payload()).contains("stock lost").contains("80.10");
        assertThat(refunded.causationId()).isEqualTo(refund.eventId());
        assertThat(outstanding(customer)).isEqualByComparingTo("0.00");

        orderService.publish(refundAgain, refundAgain);
        awaitProcessed(refundAgain);
        assertThat(types(OrderPayment.refundStreamOf(order))).containsExactly("RefundNotRequired");
        assertPublishedOnce("RefundNotRequired", OrderPayment.refundStreamOf(order));
        assertThat(types(stream)).hasSize(3);
    }

    @Test
    void aRefundRequestForADeclinedPaymentIsAnsweredNotRequiredExactlyOnce() {
        UUID order = UUID.randomUUID();
        EventMessage request =
                orderService.message(order, 3, new PaymentRequested(order, UUID.randomUUID(), amount("20000")));
        EventMessage refund = orderService.message(order, 4, new RefundRequested(order, "payment declined"));
        EventMessage refundAgain = orderService.message(order, 5, new RefundRequested(order, "payment declined"));

        orderService.publish(request, refund, refund, refundAgain);

        awaitProcessed(request, refund, refundAgain);
        assertThat(types(paymentStream(order))).containsExactly("PaymentInitiated", "PaymentDeclined");
        String answers = OrderPayment.refundStreamOf(order);
        assertThat(types(answers)).containsExactly("RefundNotRequired");
        EventMessage answer = assertPublishedOnce("RefundNotRequired", answers);
        assertThat(answer.payload()).contains(order.toString()).contains("declined");
        assertThat(answer.causationId()).isEqualTo(refund.eventId());
    }

    @Test
    void aRefundRequestBeforeThePaymentRequestIsAnsweredAndThePaymentIsThenDeclinedOrderCancelled() {
        UUID order = UUID.randomUUID();
        UUID customer = UUID.randomUUID();
        EventMessage refund = orderService.message(order, 3, new RefundRequested(order, "deadline passed"));
        EventMessage lateRequest = orderService.message(order, 4, new PaymentRequested(order, customer, amount("99")));

        orderService.publish(refund);
        awaitProcessed(refund);
        assertThat(types(OrderPayment.refundStreamOf(order))).containsExactly("RefundNotRequired");
        assertThat(types(paymentStream(order))).isEmpty();

        orderService.publish(lateRequest, lateRequest);
        awaitProcessed(lateRequest);
        assertThat(types(paymentStream(order))).containsExactly("PaymentInitiated", "PaymentDeclined");
        EventMessage declined = assertPublishedOnce("PaymentDeclined", paymentStream(order));
        assertThat(declined.payload()).contains("\"code\":\"ORDER_CANCELLED\"");
        assertPublishedOnce("RefundNotRequired", OrderPayment.refundStreamOf(order));
        assertThat(outstanding(customer)).isEqualByComparingTo("0.00");
        assertThat(publishedByPayment)
                .noneMatch(message -> message.type().equals("PaymentCaptured")
                        && message.streamId().equals(paymentStream(order)));
    }

    @Test
    void aBatchOfRequestsIsDecidedInOneTransaction_withTheAnswersOfHandlingThemOneAfterAnother() {
        UUID customer = UUID.randomUUID();
        UUID customerAlone = UUID.randomUUID();
        List<UUID> batched = orders(8);
        List<UUID> alone = orders(8);

        transactions.executeWithoutResult(status -> participant.handleAll(requests(batched, customer)));
        for (EventEnvelope<Object> request : requests(alone, customerAlone)) {
            transactions.executeWithoutResult(status -> participant.handleAll(List.of(request)));
        }

        for (int i = 0; i < batched.size(); i++) {
            assertThat(answers(batched.get(i))).as("order %d", i).isEqualTo(answers(alone.get(i)));
        }
        assertThat(answers(batched.get(0))).containsExactly("PaymentInitiated", "PaymentCaptured", "PaymentRefunded");
        assertThat(answers(batched.get(5)))
                .as("the sixth payment finds the credit the five before it used up")
                .containsExactly("PaymentInitiated", "PaymentDeclined");
        assertThat(answers(batched.get(6)))
                .as("after the refund earlier in the batch there is room again")
                .containsExactly("PaymentInitiated", "PaymentCaptured");
        assertThat(answers(batched.get(7))).containsExactly("RefundNotRequired", "PaymentInitiated", "PaymentDeclined");
        assertThat(outstanding(customer)).isEqualByComparingTo("40001.00");
        assertThat(outstanding(customerAlone)).isEqualByComparingTo("40001.00");
        assertThat(jdbc.queryForObject(
                        "select count(distinct transaction_id::text) from es_event where stream_id = any(?::text[])",
                        Integer.class,
                        "{"
                                + String.join(
                                        ",",
                                        batched.stream()
                                                .map(OrderSagaParticipationIT::paymentStream)
                                                .toList())
                                + "}"))
                .isEqualTo(1);
    }

    /**
     * Five payments of 10 000.00 use up the credit of 50 000.00; a sixth of 1.00 is declined; the first is refunded;
     * a seventh of 1.00 is captured; the eighth order's refund is requested before its payment; the second payment
     * is requested again.
     */
    private List<EventEnvelope<Object>> requests(List<UUID> orders, UUID customer) {
        List<EventEnvelope<Object>> requests = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            requests.add(envelope(new PaymentRequested(orders.get(i), customer, amount("10000.00"))));
        }
        requests.add(envelope(new PaymentRequested(orders.get(5), customer, amount("1.00"))));
        requests.add(envelope(new RefundRequested(orders.get(0), "cancelled")));
        requests.add(envelope(new PaymentRequested(orders.get(6), customer, amount("1.00"))));
        requests.add(envelope(new RefundRequested(orders.get(7), "cancelled")));
        requests.add(envelope(new PaymentRequested(orders.get(7), customer, amount("1.00"))));
        requests.add(envelope(new PaymentRequested(orders.get(1), customer, amount("10000.00"))));
        return requests;
    }

    private static EventEnvelope<Object> envelope(Object request) {
        UUID order = request instanceof PaymentRequested requested
                ? requested.orderId()
                : ((RefundRequested) request).orderId();
        return new EventEnvelope<>(
                UUID.randomUUID(),
                "order-" + order,
                1,
                GlobalPosition.START,
                request.getClass().getSimpleName(),
                1,
                Instant.now(),
                "correlation-" + order,
                null,
                null,
                null,
                request);
    }

    private static List<UUID> orders(int count) {
        List<UUID> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            orders.add(UUID.randomUUID());
        }
        return orders;
    }

    /** The types of the order's refund answer and payment events, in that order. */
    private List<String> answers(UUID order) {
        List<String> answers = new ArrayList<>(types(OrderPayment.refundStreamOf(order)));
        answers.addAll(types(paymentStream(order)));
        return answers;
    }

    private void awaitProcessed(EventMessage... messages) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            for (EventMessage message : messages) {
                assertThat(jdbc.queryForObject(
                                "select count(*) from consumer_processed_event where consumer = ? and event_id = ?",
                                Integer.class,
                                OrderSagaParticipant.CONSUMER,
                                UUID.fromString(message.eventId())))
                        .as("processed %s", message.type())
                        .isEqualTo(1);
            }
        });
    }

    /** Asserts that the topic carries {@code type} of {@code stream} once, and that its outbox row is then gone. */
    private EventMessage assertPublishedOnce(String type, String stream) {
        await().atMost(PATIENCE).until(() -> !published(type, stream).isEmpty());
        await().atMost(PATIENCE)
                .alias("a published row leaves the outbox (ADR 0046)")
                .until(() -> jdbc.queryForObject(
                                "select count(*) from outbox where stream_id = ? and type = ?",
                                Integer.class,
                                stream,
                                type)
                        == 0);
        List<EventMessage> published = published(type, stream);
        assertThat(published).hasSize(1);
        return published.getFirst();
    }

    private List<EventMessage> published(String type, String stream) {
        return publishedByPayment.stream()
                .filter(message ->
                        message.type().equals(type) && message.streamId().equals(stream))
                .toList();
    }

    private List<String> types(String stream) {
        return jdbc.queryForList(
                "select type from es_event where stream_id = ? order by version", String.class, stream);
    }

    private BigDecimal outstanding(UUID customer) {
        return jdbc.queryForObject(
                "select captured - refunded from customer_credit where customer_id = ?", BigDecimal.class, customer);
    }

    private static String paymentStream(UUID order) {
        return "payment-" + OrderPayment.paymentIdOf(order);
    }

    private static StockReserved reserved(UUID order, UUID customer, String total) {
        return new StockReserved(order, List.of(new ReservedLine(UUID.randomUUID(), 1)), customer, amount(total));
    }

    private static BigDecimal amount(String value) {
        return Money.of(value);
    }
}
