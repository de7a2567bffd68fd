package io.sagaflow.inventory.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.consumer.IdempotentConsumer;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.inventory.InventoryHttp;
import io.sagaflow.inventory.InventoryHttp.Reply;
import io.sagaflow.inventory.contracts.StockReleased;
import io.sagaflow.inventory.contracts.StockReservationFailed;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import io.sagaflow.inventory.reservation.adapter.messaging.OrderSagaConsumer;
import io.sagaflow.inventory.reservation.application.OrderStockReservations;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Release;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Request;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Reserve;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.contracts.OrderLine;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.StockReleaseRequested;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The inventory side of the order saga, fed through the real shared topic: messages are published as the order
 * service's outbox relay would, and the answers are read from the reservation streams.
 */
@SagaflowIntegrationTest
class OrderSagaIT {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final UUID CUSTOMER = UUID.fromString("00000000-0000-0000-0000-0000000000c1");

    @Value("${local.server.port}")
    int port;

    @Autowired
    ReliableTopicEventBus topic;

    @Autowired
    EventStore events;

    @Autowired
    JsonMapper json;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    IdempotentConsumer processed;

    @Autowired
    OrderStockReservations reservations;

    private InventoryHttp http;

    @BeforeEach
    void client() {
        http = new InventoryHttp(port);
    }

    @Test
    void anOrderWhoseLinesAreAllInStockIsReservedOnEveryProduct() {
        UUID kettle = product(10);
        UUID toaster = product(3);
        UUID order = UUID.randomUUID();

        EventMessage placed = placed(order, line(kettle, 2), line(toaster, 3));
        topic.publish(List.of(placed));

        List<EventEnvelope<Object>> answer = awaitAnswers(order, 1);
        // The answer carries what payment charges: the order's customer and total, as placed (ADR 0055).
        assertThat(answer.getFirst().payload())
                .isEqualTo(new StockReserved(
                        order,
                        List.of(new ReservedLine(kettle, 2), new ReservedLine(toaster, 3)),
                        CUSTOMER,
                        new BigDecimal("49.95")));
        assertThat(answer.getFirst().causationId()).isEqualTo(placed.eventId());
        assertThat(answer.getFirst().correlationId()).isEqualTo(placed.correlationId());
        assertThat(reserved(kettle)).isEqualTo(2);
        assertThat(reserved(toaster)).isEqualTo(3);
        assertThat(jdbc.queryForList(
                        "select source from stock_reservation where order_id = ? and active", String.class, order))
                .containsExactly("SAGA", "SAGA");
        // The answer went out through the outbox: its row is deleted once the topic has it (ADR 0046).
        await().atMost(PATIENCE)
                .until(() -> jdbc.queryForObject(
                                "select count(*) from outbox where stream_id = ?",
                                Integer.class,
                                "reservation-" + order)
                        == 0);
        assertConsistent();
    }

    @Test
    void anOrderOfMoreThanIsInStockFailsAndChangesNoProduct() {
        UUID kettle = product(1);
        UUID order = UUID.randomUUID();

        topic.publish(List.of(placed(order, line(kettle, 2))));

        assertThat(awaitAnswers(order, 1).getFirst().payload())
                .isInstanceOfSatisfying(StockReservationFailed.class, failed -> {
                    assertThat(failed.code()).isEqualTo("OUT_OF_STOCK");
                    assertThat(failed.productId()).isEqualTo(kettle);
                });
        assertThat(reserved(kettle)).isZero();
        assertThat(events.currentVersion("product-" + kettle)).isEqualTo(1);
    }

    @Test
    void anOrderWithOneShortLineReservesNoneOfItsLines() {
        UUID first = product(5);
        UUID second = product(5);
        UUID third = product(1);
        UUID order = UUID.randomUUID();

        topic.publish(List.of(placed(order, line(first, 5), line(second, 1), line(third, 2))));

        assertThat(awaitAnswers(order, 1).getFirst().payload())
                .isInstanceOfSatisfying(StockReservationFailed.class, failed -> {
                    assertThat(failed.code()).isEqualTo("OUT_OF_STOCK");
                    assertThat(failed.productId()).isEqualTo(third);
                });
        for (UUID product : List.of(first, second, third)) {
            assertThat(reserved(product)).isZero();
            assertThat(events.currentVersion("product-" + product)).isEqualTo(1);
        }
    }

    @Test
    void anOrderNamingAnUnknownProductFailsAndChangesNoProduct() {
        UUID kettle = product(5);
        UUID unknown = UUID.randomUUID();
        UUID order = UUID.randomUUID();

        topic.publish(List.of(placed(order, line(kettle, 1), line(unknown, 1))));

        assertThat(awaitAnswers(order, 1).getFirst().payload())
                .isInstanceOfSatisfying(StockReservationFailed.class, failed -> {
                    assertThat(failed.code()).isEqualTo("UNKNOWN_PRODUCT");
                    assertThat(failed.productId()).isEqualTo(unknown);
                });
        assertThat(reserved(kettle)).isZero();
    }

    @Test
    void aReleaseRequestGivesBackEveryReservedLineOnce() {
        UUID kettle = product(4);
        UUID toaster = product(4);
        UUID order = UUID.randomUUID();
        topic.publish(List.of(placed(order, line(kettle, 4), line(toaster, 1))));
        awaitAnswers(order, 1);
        assertThat(reserved(kettle)).isEqualTo(4);

        EventMessage release = releaseRequested(order, "payment declined");
        topic.publish(List.of(release));

        List<EventEnvelope<Object>> answers = awaitAnswers(order, 2);
        assertThat(answers.get(1).payload())
                .isEqualTo(new StockReleased(
                        order, List.of(new ReservedLine(kettle, 4), new ReservedLine(toaster, 1)), "payment declined"));
        assertThat(answers.get(1).causationId()).isEqualTo(release.eventId());
        assertThat(reserved(kettle)).isZero();
        assertThat(reserved(toaster)).isZero();
        assertThat(jdbc.queryForObject(
                        "select count(*) from stock_reservation where order_id = ? and active", Integer.class, order))
                .isZero();

        // A second request (a new event: the saga asked again) is answered by nothing: already released.
        topic.publish(List.of(releaseRequested(order, "again")));
        awaitEverythingPublishedFor(order);
        assertThat(events.readStream("reservation-" + order, 1)).hasSize(2);
        assertConsistent();
    }

    @Test
    void aReleaseRequestedBeforeThePlacementIsAnsweredEmptyAndThePlacementIsRefused() {
        UUID kettle = product(5);
        UUID order = UUID.randomUUID();

        topic.publish(List.of(releaseRequested(order, "deadline passed")));
        assertThat(awaitAnswers(order, 1).getFirst().payload())
                .isEqualTo(new StockReleased(order, List.of(), "deadline passed"));

        topic.publish(List.of(placed(order, line(kettle, 1))));
        assertThat(awaitAnswers(order, 2).get(1).payload())
                .isInstanceOfSatisfying(
                        StockReservationFailed.class,
                        failed -> assertThat(failed.code()).isEqualTo("ORDER_CANCELLED"));
        assertThat(reserved(kettle)).isZero();
        assertThat(events.currentVersion("product-" + kettle)).isEqualTo(1);
    }

    @Test
    void theSameMessagePublishedTwiceHasOneEffect() {
        UUID kettle = product(10);
        UUID order = UUID.randomUUID();
        double duplicatesBefore = duplicates();

        EventMessage placed = placed(order, line(kettle, 3));
        topic.publish(List.of(placed));
        topic.publish(List.of(placed));
        awaitEverythingPublishedFor(order);

        assertThat(duplicates()).isGreaterThanOrEqualTo(duplicatesBefore + 1);
        assertThat(events.readStream("reservation-" + order, 1)).hasSize(1);
        assertThat(reserved(kettle)).isEqualTo(3);
        assertThat(events.currentVersion("product-" + kettle)).isEqualTo(2);
    }

    @Test
    void sagaAndApiReservationsRacingForTheLastUnitsNeverOversell() throws Exception {
        int units = 10;
        UUID kettle = product(units);
        List<UUID> sagaOrders = new ArrayList<>();
        List<EventMessage> placements = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            UUID order = UUID.randomUUID();
            sagaOrders.add(order);
            placements.add(placed(order, line(kettle, 1)));
        }
        AtomicInteger apiGranted = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                calls.add(clients.submit(() -> {
                    start.await();
                    Reply reply =
                            http.post("/api/products/" + kettle + "/stock/reserve", """
                            {"quantity":1,"orderId":"%s"}""".formatted(UUID.randomUUID()));
                    if (reply.status() == 200) {
                        apiGranted.incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            topic.publish(placements);
            for (Future<?> call : calls) {
                call.get();
            }
        } finally {
            clients.shutdownNow();
        }

        int sagaGranted = 0;
        for (UUID order : sagaOrders) {
            if (awaitAnswers(order, 1).getFirst().payload() instanceof StockReserved) {
                sagaGranted++;
            }
        }
        assertThat(sagaGranted + apiGranted.get()).isEqualTo(units);
        assertThat(reserved(kettle)).isEqualTo(units);
        assertConsistent();
    }

    @Test
    void aBatchOfRequestsIsDecidedInOneTransaction_withTheAnswersOfHandlingThemOneAfterAnother() {
        UUID kettle = product(5);
        UUID toaster = product(3);
        UUID kettleAlone = product(5);
        UUID toasterAlone = product(3);
        List<UUID> batched = orders(5);
        List<UUID> alone = orders(5);

        reservations.handleAll(requests(batched, kettle, toaster));
        requests(alone, kettleAlone, toasterAlone).forEach(request -> reservations.handleAll(List.of(request)));

        for (int i = 0; i < batched.size(); i++) {
            assertThat(answersOf(batched.get(i), kettle, toaster))
                    .as("order %d", i)
                    .isEqualTo(answersOf(alone.get(i), kettleAlone, toasterAlone));
        }
        assertThat(answersOf(batched.get(0), kettle, toaster))
                .containsExactly("StockReserved [K2, T1]", "StockReleased [K2, T1]");
        assertThat(answersOf(batched.get(1), kettle, toaster))
                .as("two lines of one product are reserved as one")
                .containsExactly("StockReserved [K3]");
        assertThat(answersOf(batched.get(2), kettle, toaster)).containsExactly("StockReservationFailed OUT_OF_STOCK");
        assertThat(answersOf(batched.get(3), kettle, toaster))
                .as("reserves what an earlier release in the batch gave back")
                .containsExactly("StockReserved [K2, T3]");
        assertThat(answersOf(batched.get(4), kettle, toaster))
                .containsExactly("StockReleased []", "StockReservationFailed ORDER_CANCELLED");
        assertThat(reserved(kettle)).isEqualTo(5).isEqualTo(reserved(kettleAlone));
        assertThat(reserved(toaster)).isEqualTo(3).isEqualTo(reserved(toasterAlone));
        assertThat(events.currentVersion("product-" + kettle)).isEqualTo(5);
        assertThat(events.currentVersion("product-" + toaster)).isEqualTo(4);
        assertThat(jdbc.queryForObject(
                        "select count(distinct transaction_id::text) from es_event where stream_id = any(?::text[])"
                                + " and version > 1",
                        Integer.class,
                        "{product-" + kettle + ",product-" + toaster + "}"))
                .isEqualTo(1);
        assertConsistent();
    }

    /**
     * Order 0 reserves 2 kettles and a toaster; order 1 the last 3 kettles in two lines; order 2 finds none left;
     * order 0 gives its units back; order 3 takes them and every toaster; order 4 is released before it is placed.
     */
    private List<Request> requests(List<UUID> orders, UUID kettle, UUID toaster) {
        return List.of(
                reserveOf(orders.get(0), line(kettle, 2), line(toaster, 1)),
                reserveOf(orders.get(1), line(kettle, 2), line(kettle, 1)),
                reserveOf(orders.get(2), line(kettle, 1)),
                new Release(new StockReleaseRequested(orders.get(0), "declined"), metadata(orders.get(0))),
                reserveOf(orders.get(3), line(kettle, 2), line(toaster, 3)),
                new Release(new StockReleaseRequested(orders.get(4), "deadline"), metadata(orders.get(4))),
                reserveOf(orders.get(4), line(toaster, 1)));
    }

    private Reserve reserveOf(UUID order, OrderLine... lines) {
        return new Reserve(json.readValue(placed(order, lines).payload(), OrderPlaced.class), metadata(order));
    }

    private static EventMetadata metadata(UUID order) {
        return EventMetadata.startingFlow("correlation-" + order);
    }

    private static List<UUID> orders(int count) {
        List<UUID> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            orders.add(UUID.randomUUID());
        }
        return orders;
    }

    /** The order's answers, with its products named K and T so that two batches' answers compare. */
    private List<String> answersOf(UUID order, UUID kettle, UUID toaster) {
        return events.readStream("reservation-" + order, 1).stream()
                .map(event -> switch (event.payload()) {
                    case StockReserved reserved -> "StockReserved " + lines(reserved.lines(), kettle, toaster);
                    case StockReleased released -> "StockReleased " + lines(released.lines(), kettle, toaster);
                    case StockReservationFailed failed -> "StockReservationFailed " + failed.code();
                    default -> event.type();
                })
                .toList();
    }

    private static String lines(List<ReservedLine> lines, UUID kettle, UUID toaster) {
        return lines.stream()
                .map(line -> (line.productId().equals(kettle)
                                ? "K"
                                : line.productId().equals(toaster) ? "T" : "?")
                        + line.quantity())
                .sorted()
                .toList()
                .toString();
    }

    private UUID product(int quantityOnHand) {
        return UUID.fromString(http.createProduct("SKU-" + UUID.randomUUID(), quantityOnHand));
    }

    private int reserved(UUID productId) {
        return jdbc.queryForObject(
                "select quantity_reserved from product_view where product_id = ?", Integer.class, productId);
    }

    private void assertConsistent() {
        assertThat(http.get("/api/admin/audit/stock").body().get("consistent").asBoolean())
                .isTrue();
    }

    private List<EventEnvelope<Object>> awaitAnswers(UUID order, int count) {
        return await().atMost(PATIENCE)
                .until(() -> events.readStream("reservation-" + order, 1), answers -> answers.size() >= count);
    }

    /**
     * Publishes a release request for another, unknown order on this order's stream (so on the same shard, behind
     * everything published for the order before) and waits until it is processed: then so is everything before it, and
     * an absent effect means something. (A type the consumer does not declare would never reach it.)
     */
    private void awaitEverythingPublishedFor(UUID order) {
        EventMessage marker = message(
                order,
                99,
                "StockReleaseRequested",
                json.writeValueAsString(new StockReleaseRequested(UUID.randomUUID(), "marker")));
        topic.publish(List.of(marker));
        await().atMost(PATIENCE)
                .until(() -> processed.hasProcessed(OrderSagaConsumer.CONSUMER, UUID.fromString(marker.eventId())));
    }

    private double duplicates() {
        return meters.counter(
                        "sagaflow.consumer.events", "consumer", OrderSagaConsumer.CONSUMER, "outcome", "duplicate")
                .count();
    }

    private EventMessage placed(UUID order, OrderLine... lines) {
        BigDecimal total = BigDecimal.ZERO;
        for (OrderLine line : lines) {
            total = total.add(line.unitPrice().multiply(BigDecimal.valueOf(line.quantity())));
        }
        OrderPlaced placed = new OrderPlaced(
                order,
                CUSTOMER,
                List.of(lines),
                total,
                BigDecimal.ZERO.setScale(2),
                total,
                "1 Main Street",
                Instant.now().plus(5, ChronoUnit.MINUTES));
        return message(order, 1, "OrderPlaced", json.writeValueAsString(placed));
    }

    private EventMessage releaseRequested(UUID order, String reason) {
        return message(
                order, 2, "StockReleaseRequested", json.writeValueAsString(new StockReleaseRequested(order, reason)));
    }

    private static EventMessage message(UUID order, long version, String type, String payload) {
        return new EventMessage(
                UUID.randomUUID().toString(),
                OrderContracts.STOCK_REQUESTS,
                "order-" + order,
                version,
                type,
                1,
                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()),
                "correlation-" + order,
                null,
                null,
                null,
                payload);
    }

    private static OrderLine line(UUID productId, int quantity) {
        return new OrderLine(productId, quantity, new BigDecimal("9.99"));
    }
}
