package io.sagaflow.order.fulfilment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.GroupCommit;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.fulfilment.adapter.hazelcast.HazelcastSagaDeadlines;
import io.sagaflow.order.fulfilment.adapter.hazelcast.HazelcastSagaInbox;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.application.SagaFeed;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import io.sagaflow.order.fulfilment.domain.OrderFulfilmentSaga;
import io.sagaflow.order.fulfilment.domain.SagaMessage;
import io.sagaflow.order.ordering.application.OrderAdmission;
import io.sagaflow.order.ordering.application.OrderPlacement;
import io.sagaflow.order.ordering.application.OrderView;
import io.sagaflow.order.ordering.domain.OrderPricing;
import io.sagaflow.payment.contracts.PaymentContracts;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order service's saga on its real Jet job, inbox, deadline timers, outbox and shared topic, with inventory and
 * payment played by this test through the topic (the system tests run the real ones). What the order service
 * publishes is read off the topic; what the participants would answer is published onto it.
 */
@SagaflowIntegrationTest
@TestPropertySource(
        properties = {
            "sagaflow.order.saga.timeout=8s",
            "sagaflow.order.saga.compensation-timeout=1s",
            "sagaflow.order.saga.max-compensation-attempts=2",
            "sagaflow.outbox.poll-interval=20ms"
        })
class SagaJobIT {

    @Value("${local.server.port}")
    int port;

    @Autowired
    ReliableTopicEventBus bus;

    @Autowired
    JsonMapper json;

    @Autowired
    EventTypeRegistry types;

    @Autowired
    SagaRunner runner;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    MeterRegistry meters;

    @Autowired
    ViewCache<OrderView> orderViews;

    @Autowired
    EventStore events;

    @Autowired
    OrderFulfilmentSaga saga;

    @Autowired
    HazelcastSagaDeadlines deadlines;

    @Autowired
    HazelcastSagaInbox inbox;

    @Autowired
    SagaQueries sagas;

    @Autowired
    CatalogCopies catalog;

    @Autowired
    OrderAdmission admission;

    @Autowired
    Clock clock;

    /**
     * The events of a saga confirmed on payment's answer, which payment gave on inventory's reservation (ADR 0055).
     */
    private static final List<String> CONFIRMED_ON_PAYMENTS_ANSWER =
            List.of("OrderPlaced", "StockReservationConfirmed", "PaymentCaptureConfirmed", "OrderConfirmed");

    /** The events of a saga that heard of its reservation first and asked payment itself (before ADR 0055). */
    private static final List<String> CONFIRMED_SAGA = List.of(
            "OrderPlaced",
            "StockReservationConfirmed",
            "PaymentRequested",
            "PaymentCaptureConfirmed",
            "OrderConfirmed");

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<EventMessage> published = new CopyOnWriteArrayList<>();
    private Subscription listening;
    private UUID customer;
    private UUID product;

    @BeforeEach
    void setUp() {
        listening = bus.subscribe(
                "test-observer-" + UUID.randomUUID(),
                OrderContracts.PUBLISHERS,
                new InMemoryCheckpoints(),
                published::add);
        customer = UUID.randomUUID();
        product = UUID.randomUUID();
        answer(
                "customer-" + customer,
                "CustomerRegistered",
                Map.of(
                        "customerId",
                        customer,
                        "email",
                        customer + "@example.com",
                        "name",
                        "Ada",
                        "address",
                        "x",
                        "phone",
                        "y"));
        answer(
                "product-" + product,
                "ProductCreated",
                Map.of(
                        "productId",
                        product,
                        "sku",
                        "SKU-" + product,
                        "name",
                        "Widget",
                        "description",
                        "",
                        "price",
                        10.00,
                        "quantityOnHand",
                        100,
                        "category",
                        "tools"));
        await().atMost(Duration.ofSeconds(45)).until(() -> placeOrder().statusCode() != 422);
    }

    @AfterEach
    void tearDown() {
        listening.cancel();
    }

    @Test
    void aReservedAndCapturedOrderIsConfirmedOnPaymentsAnswerAndItsSagaShowsEveryStep() throws Exception {
        UUID order = orderIdOf(placeOrder());
        String correlation = awaitPublished("OrderPlaced", order).correlationId();
        // Inventory reserved and payment charged on inventory's answer (ADR 0055): the saga hears from payment only.
        answerPaymentCapturedIn(correlation, order);

        awaitStatus(order, "CONFIRMED");
        JsonNode saga = get("/api/sagas/" + order);
        assertThat(saga.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(saga.get("steps").findValuesAsString("name"))
                .containsExactly("PLACE_ORDER", "RESERVE_STOCK", "CHARGE_PAYMENT", "CONFIRM_ORDER");
        assertThat(saga.get("durationMs").asLong()).isPositive();
        assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_ON_PAYMENTS_ANSWER);
        EventMessage confirmed = awaitPublished("OrderConfirmed", order);
        assertThat(confirmed.correlationId())
                .as("one correlation id across the saga")
                .isEqualTo(correlation);
        assertThat(published)
                .as("payment was not asked by the saga")
                .noneMatch(
                        m -> m.type().equals("PaymentRequested") && m.streamId().equals("order-" + order));

        HttpResponse<String> metrics = send("GET", "/actuator/prometheus", null);
        assertThat(metrics.body())
                .contains("sagaflow_saga_duration_seconds_count{outcome=\"confirmed\"")
                .contains("sagaflow_saga_step_seconds_count{outcome=\"completed\",step=\"reserve_and_charge\"")
                .contains("sagaflow_saga_quarantined")
                .contains("sagaflow_saga_backlog")
                .contains("sagaflow_saga_open")
                .contains("sagaflow_outbox_lag_seconds_count")
                .contains("sagaflow_outbox_backlog")
                .contains("sagaflow_consumer_lag_seconds_count{consumer=\"order.saga\"");
        assertThat(send("GET", "/v3/api-docs", null).body())
                .contains("/api/orders")
                .contains("/api/sagas/{sagaId}");
    }

    @Test
    void anOrderPlacedAgainWithItsIdempotencyKeyIsPlacedOnce_andEveryAnswerNamesIt() throws Exception {
        String key = UUID.randomUUID().toString();
        int requests = 6;
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                    return placeOrder(key, 2);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        start.countDown();
        List<UUID> orders = new ArrayList<>();
        int replayed = 0;
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.get(60, TimeUnit.SECONDS);
            orders.add(orderIdOf(response));
            replayed += response.headers().firstValue("Idempotent-Replayed").isPresent() ? 1 : 0;
        }
        assertThat(orders).containsOnly(orders.getFirst());
        assertThat(replayed).isEqualTo(requests - 1);
        assertThat(jdbc.queryForObject(
                        "select count(*) from es_event where type = 'OrderPlaced' and stream_id = ?",
                        Integer.class,
                        OrderPlacement.streamOf(orders.getFirst())))
                .isEqualTo(1);
        assertThat(jdbc.queryForObject(
                        "select count(*) from idempotency_key where scope = 'orders' and key = ?", Integer.class, key))
                .isEqualTo(1);

        // Made again once its saga confirmed it: the answer is the order as it is now.
        answerPaymentCaptured(orders.getFirst());
        awaitStatus(orders.getFirst(), "CONFIRMED");
        HttpResponse<String> later = placeOrder(key, 2);
        assertThat(later.statusCode()).isEqualTo(201);
        assertThat(json.readTree(later.body()).get("status").asString()).isEqualTo("CONFIRMED");

        HttpResponse<String> reused = placeOrder(key, 3);
        assertThat(reused.statusCode()).isEqualTo(422);
        assertThat(json.readTree(reused.body()).get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(placeOrder("two words", 2).statusCode()).isEqualTo(400);
    }

    @Test
    void sagaBatchesRunOnLanesThatWaitForWork_soTheJobKeepsNoJetThreadThatWakesWhileIdle() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        answerPaymentCaptured(order);
        awaitPublished("OrderConfirmed", order);

        // The answer was handled: by a lane of the job, not by a blocking Jet thread (ADR 0034).
        List<String> threads = Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .toList();
        assertThat(threads).anyMatch(name -> name.startsWith("saga-lane-"));
        assertThat(threads).noneMatch(name -> name.contains(".jet.blocking.thread-"));
        Thread lane = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("saga-lane-"))
                .findFirst()
                .orElseThrow();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(lane.getState()).isEqualTo(Thread.State.WAITING));
    }

    @Test
    void aReadThatWaitsIsAnsweredWhenTheSagaMovesTheOrderOn_andAnUnchangedOrderAfterItsWait() throws Exception {
        HttpResponse<String> placed = placeOrder();
        UUID order = orderIdOf(placed);
        String pending = placed.headers().firstValue("ETag").orElseThrow();
        assertThat(send("GET", "/api/orders/" + order, null).headers().firstValue("ETag"))
                .as("the answer to the order and a later read of it agree")
                .hasValue(pending);
        HttpResponse<String> notModified = conditionalGet(order, pending, null);
        assertThat(notModified.statusCode()).isEqualTo(304);
        assertThat(notModified.body()).isEmpty();

        CompletableFuture<HttpResponse<String>> waiting =
                CompletableFuture.supplyAsync(() -> conditionalGetQuietly(order, pending, "wait=30"));
        await().atMost(Duration.ofSeconds(10)).until(() -> orderViews.waiting() == 1);
        answerPaymentCaptured(order);
        HttpResponse<String> changed = waiting.get(45, TimeUnit.SECONDS);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(json.readTree(changed.body()).get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(changed.headers().firstValue("Preference-Applied"))
                .as("capped at sagaflow.order.poll.max-wait")
                .hasValue("wait=20");
        String confirmed = changed.headers().firstValue("ETag").orElseThrow();
        assertThat(confirmed).isNotEqualTo(pending);

        long started = System.nanoTime();
        HttpResponse<String> unchanged = conditionalGet(order, confirmed, "wait=1");
        assertThat(unchanged.statusCode()).isEqualTo(304);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(conditionalGet(order, "\"nonsense\"", "wait=soon").statusCode())
                .isEqualTo(200);
        assertThat(send("GET", "/actuator/prometheus", null).body())
                .as("waited reads are told apart from latency")
                .contains("uri=\"/api/orders/{orderId}\",wait=\"yes\"");
    }

    @Test
    void aDeclinedPaymentReleasesTheStockAndCancelsTheOrderWithTheReason() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        Map<String, Object> declined = new HashMap<>(paymentPayload(order));
        declined.put("code", "AMOUNT_ABOVE_LIMIT");
        declined.put("reason", "over the limit");
        answer("payment-" + order, "PaymentDeclined", declined);
        awaitPublished("StockReleaseRequested", order);
        assertThat(get("/api/orders/" + order).get("status").asString()).isEqualTo("PENDING");
        answer("reservation-" + order, "StockReleased", Map.of("orderId", order, "lines", List.of(), "reason", "x"));

        JsonNode cancelled = awaitStatus(order, "CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("AMOUNT_ABOVE_LIMIT");
        assertThat(cancelled.get("cancellationReason").asString()).isEqualTo("over the limit");
        assertThat(published.stream()
                        .filter(m -> m.type().equals("RefundRequested")
                                && m.streamId().equals("order-" + order)))
                .isEmpty();
    }

    @Test
    void thePlacementArmsTheSagasTimer_soTheFeedLeavesOrderPlacedOut() throws Exception {
        UUID order = orderIdOf(placeOrder());
        // Nobody answers this order, and the feed does not take OrderPlaced: only the placement can have armed it.
        assertThat(SagaFeed.EVENT_TYPES).doesNotContain(OrderPlaced.class);
        Instant deadline =
                Instant.parse(json.readTree(awaitPublished("OrderPlaced", order).payload())
                        .get("deadline")
                        .asString());
        assertThat(deadlines.armed(order)).contains(deadline);
    }

    @Test
    void aPlacedOrderIsAnOpenSagaUntilItEnds_andTooManyOpenSagasRefuseNewOrders() throws Exception {
        UUID order = orderIdOf(placeOrder());
        assertThat(deadlines.open()).as("sagas open on this member").isPositive();
        try (OrderAdmission full =
                new OrderAdmission(() -> 0, -1, deadlines::open, 0, Duration.ofMillis(10), new SimpleMeterRegistry())) {
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThatThrownBy(full::admit)
                            .isInstanceOfSatisfying(
                                    ApiException.class,
                                    e -> assertThat(e.code()).isEqualTo("OPEN_SAGAS")));
        }

        awaitPublished("OrderPlaced", order);
        answerPaymentCaptured(order);
        awaitStatus(order, "CONFIRMED");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> deadlines.armed(order).isEmpty());
    }

    @Test
    void anOrderWhoseTimerCannotBeArmedIsRefusedWith503_andNothingIsPlaced() {
        OrderPlacement placement = new OrderPlacement(
                new GroupCommit(events, 64, size -> {}),
                catalog,
                new OrderPricing(new BigDecimal("0.08")),
                Duration.ofSeconds(8),
                Clock.systemUTC(),
                admission,
                new OrderPlacement.SagaStart() {
                    @Override
                    public void arm(UUID orderId, Instant deadline) {
                        throw new IllegalStateException("the order cluster is gone");
                    }

                    @Override
                    public void placed(EventEnvelope<Object> placed) {
                        throw new AssertionError("nothing was placed");
                    }
                });
        Integer ordersBefore =
                jdbc.queryForObject("select count(*) from es_stream where stream_id like 'order-%'", Integer.class);

        assertThatThrownBy(() -> placement.place(
                        new OrderPlacement.PlaceOrder(
                                customer, List.of(new OrderPlacement.RequestedLine(product, 1, null)), "1 Main St"),
                        EventMetadata.newFlow(),
                        null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                    assertThat(e.code()).isEqualTo("SAGA_TIMER_UNAVAILABLE");
                });
        assertThat(jdbc.queryForObject("select count(*) from es_stream where stream_id like 'order-%'", Integer.class))
                .isEqualTo(ordersBefore);
    }

    @Test
    void aSilentParticipantIsCompensatedAtTheDeadline_andAnUnansweredCompensationIsQuarantined() throws Exception {
        UUID order = orderIdOf(placeOrder());
        Instant placedAt = Instant.now();
        EventMessage release = awaitPublished("StockReleaseRequested", order);
        assertThat(Duration.between(placedAt, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(7));
        assertThat(get("/api/sagas/" + order).get("status").asString()).isEqualTo("COMPENSATING");
        assertThat(release.payload()).contains("deadline");
        // Payment may be charging on a reservation the saga has not heard of (ADR 0055): its refund is asked too.
        awaitPublished("RefundRequested", order);

        await().atMost(Duration.ofSeconds(45))
                .until(() -> "COMPENSATION_FAILED"
                        .equals(get("/api/sagas/" + order).get("status").asString()));
        assertThat(published.stream()
                        .filter(m -> m.type().equals("StockReleaseRequested")
                                && m.streamId().equals("order-" + order)))
                .hasSize(2);
        assertThat(get("/api/admin/sagas/quarantined").findValuesAsString("sagaId"))
                .contains(order.toString());

        // The participants come back and confirm: the quarantined saga heals itself.
        answer("reservation-" + order, "StockReleased", Map.of("orderId", order, "lines", List.of(), "reason", "x"));
        answer("payment-refund-" + order, "RefundNotRequired", Map.of("orderId", order, "reason", "nothing captured"));
        JsonNode cancelled = awaitStatus(order, "CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("DEADLINE_EXCEEDED");
    }

    @Test
    void aCustomerCancellationUndoesTheReservationAndThePayment() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        HttpResponse<String> cancel = send(
                "PATCH",
                "/api/orders/" + order + "/cancel",
                "{\"reason\":\"changed my mind\",\"cancelledBy\":\"customer\"}");
        assertThat(cancel.statusCode()).isEqualTo(200);
        awaitPublished("StockReleaseRequested", order);
        awaitPublished("RefundRequested", order);
        answer("reservation-" + order, "StockReleased", Map.of("orderId", order, "lines", List.of(), "reason", "x"));
        answer("payment-refund-" + order, "RefundNotRequired", Map.of("orderId", order, "reason", "nothing captured"));

        JsonNode cancelled = awaitStatus(order, "CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("CANCELLED_BY_CUSTOMER");
        assertThat(cancelled.get("cancellationReason").asString()).isEqualTo("changed my mind");
        assertThat(cancelled.get("cancelledBy").asString()).isEqualTo("customer");
        assertThat(send("PATCH", "/api/orders/" + order + "/cancel", "{\"reason\":\"again\"}")
                        .statusCode())
                .isEqualTo(409);
    }

    @Test
    void ordersPlacedAtOnceAllGoThroughTheGroupCommit_eachShownAndPublishedOnce() throws Exception {
        DistributionSummary groups =
                meters.get("sagaflow.order.placement.group").summary();
        double placedBefore = groups.totalAmount();
        List<CompletableFuture<HttpResponse<String>>> placing = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 24; i++) {
                placing.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return placeOrder();
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        threads));
            }
        }
        List<UUID> orders = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : placing) {
            orders.add(orderIdOf(response.get(30, TimeUnit.SECONDS)));
        }

        assertThat(groups.totalAmount() - placedBefore).isEqualTo(orders.size());
        String ids = "{" + String.join(",", orders.stream().map(UUID::toString).toList()) + "}";
        assertThat(jdbc.queryForObject(
                        "select count(*) from order_view where order_id = any(?::uuid[]) and status <> 'CANCELLED'",
                        Integer.class,
                        ids))
                .isEqualTo(orders.size());
        assertThat(jdbc.queryForObject(
                        "select count(*) from saga_view where saga_id = any(?::uuid[])", Integer.class, ids))
                .isEqualTo(orders.size());
        orders.forEach(order -> awaitPublished("OrderPlaced", order));
        assertThat(published.stream()
                        .filter(m -> m.type().equals("OrderPlaced")
                                && orders.contains(UUID.fromString(m.streamId().substring("order-".length()))))
                        .map(EventMessage::eventId)
                        .distinct()
                        .count())
                .isEqualTo(orders.size());
        for (UUID order : orders) {
            assertThat(get("/api/orders/" + order).get("orderId").asString()).isEqualTo(order.toString());
        }
    }

    @Test
    void answersThatArriveTogetherAreHandledInBatches_eachSagaMovingOnce() throws Exception {
        List<UUID> orders = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            orders.add(orderIdOf(placeOrder()));
        }
        orders.forEach(order -> awaitPublished("OrderPlaced", order));
        List<EventMessage> answers = new ArrayList<>();
        for (UUID order : orders) {
            answers.add(message("payment-" + order, "PaymentCaptured", paymentPayload(order)));
        }
        bus.publish(answers);

        orders.forEach(order -> awaitPublished("OrderConfirmed", order));
        String streams =
                "{" + String.join(",", orders.stream().map(o -> "order-" + o).toList()) + "}";
        assertThat(jdbc.queryForObject(
                        "select count(*) from es_event where stream_id = any(?::text[])"
                                + " and type = 'OrderConfirmed'",
                        Integer.class,
                        streams))
                .as("every saga moved once")
                .isEqualTo(orders.size());
        assertThat(jdbc.queryForObject(
                        "select count(distinct transaction_id::text) from es_event where stream_id = any(?::text[])"
                                + " and type = 'OrderConfirmed'",
                        Integer.class,
                        streams))
                .as("answers that queued up were decided together")
                .isLessThan(orders.size());
    }

    @Test
    void aBatchDecidesAnOrdersMessagesInTurn_andOneThatLostARaceIsHandledAgainMessageByMessage() throws Exception {
        UUID order = orderIdOf(placeOrder());
        UUID other = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        awaitPublished("OrderPlaced", other);

        // Another replica handles the reservation of `order` and has not committed yet when this batch appends.
        CountDownLatch appended = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        Thread rival = Thread.ofPlatform()
                .start(() -> transactions.executeWithoutResult(status -> {
                    runner.handle("rival", entry(new SagaMessage.StockWasReserved(order)));
                    appended.countDown();
                    awaitQuietly(commit);
                }));
        assertThat(appended.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<List<String>> batch = CompletableFuture.supplyAsync(() -> runner.handleBatch(List.of(
                new SagaRunner.Delivery("m1", entry(new SagaMessage.StockWasReserved(order))),
                new SagaRunner.Delivery("m2", entry(new SagaMessage.StockWasReserved(other))),
                new SagaRunner.Delivery("m3", entry(captured(other))))));
        Thread.sleep(300);
        assertThat(batch).as("the batch waits for the rival's lock").isNotDone();
        commit.countDown();
        rival.join();

        assertThat(batch.get(20, TimeUnit.SECONDS))
                .containsExactly("CHARGING_PAYMENT", "CHARGING_PAYMENT", "CONFIRMED");
        assertThat(typesOf(order)).containsExactly("OrderPlaced", "StockReservationConfirmed", "PaymentRequested");
        assertThat(typesOf(other)).containsExactlyElementsOf(CONFIRMED_SAGA);

        // The same batch again, as after a job restart: nothing moves.
        assertThat(runner.handleBatch(List.of(
                        new SagaRunner.Delivery("m1", entry(new SagaMessage.StockWasReserved(order))),
                        new SagaRunner.Delivery("m2", entry(new SagaMessage.StockWasReserved(other))))))
                .containsExactly("CHARGING_PAYMENT", "CONFIRMED");
        assertThat(typesOf(other)).hasSize(5);
    }

    @Test
    void aBatchAppendsWhatItsMessagesDecideInOneStatement_andTheSagaViewsShowEveryStep() throws Exception {
        UUID order = orderIdOf(placeOrder());
        UUID other = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        awaitPublished("OrderPlaced", other);

        assertThat(runner.handleBatch(List.of(
                        new SagaRunner.Delivery("b1", entry(new SagaMessage.StockWasReserved(order))),
                        new SagaRunner.Delivery("b2", entry(new SagaMessage.StockWasReserved(other))),
                        new SagaRunner.Delivery("b3", entry(captured(order))))))
                .containsExactly("CHARGING_PAYMENT", "CHARGING_PAYMENT", "CONFIRMED");

        assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_SAGA);
        assertThat(jdbc.queryForObject(
                        "select count(distinct transaction_id::text) from es_event where stream_id = any(?::text[])"
                                + " and version > 1",
                        Integer.class,
                        "{order-" + order + ",order-" + other + "}"))
                .as("one transaction for the whole batch")
                .isEqualTo(1);
        JsonNode confirmed = get("/api/sagas/" + order);
        assertThat(confirmed.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(confirmed.get("steps").findValuesAsString("name"))
                .containsExactly("PLACE_ORDER", "RESERVE_STOCK", "CHARGE_PAYMENT", "CONFIRM_ORDER");
        assertThat(confirmed.get("steps").findValuesAsString("status")).containsOnly("COMPLETED");
        JsonNode charging = get("/api/sagas/" + other);
        assertThat(charging.get("status").asString()).isEqualTo("CHARGING_PAYMENT");
        assertThat(charging.get("steps").findValuesAsString("name"))
                .containsExactly("PLACE_ORDER", "RESERVE_STOCK", "CHARGE_PAYMENT");
    }

    @Test
    void ordersConfirmedInOneBatchAreAllConfirmedInTheirViews_atTheTimeOfTheirConfirmation() throws Exception {
        List<UUID> orders = List.of(orderIdOf(placeOrder()), orderIdOf(placeOrder()), orderIdOf(placeOrder()));
        List<SagaRunner.Delivery> deliveries = new ArrayList<>();
        for (UUID order : orders) {
            awaitPublished("OrderPlaced", order);
            deliveries.add(new SagaRunner.Delivery("r-" + order, entry(new SagaMessage.StockWasReserved(order))));
            deliveries.add(new SagaRunner.Delivery("c-" + order, entry(captured(order))));
        }

        assertThat(runner.handleBatch(deliveries))
                .filteredOn("CONFIRMED"::equals)
                .hasSize(3);

        for (UUID order : orders) {
            EventEnvelope<Object> confirmation =
                    events.readStream("order-" + order, 1).getLast();
            assertThat(confirmation.type()).isEqualTo("OrderConfirmed");
            JsonNode view = get("/api/orders/" + order);
            assertThat(view.get("status").asString()).isEqualTo("CONFIRMED");
            assertThat(Instant.parse(view.get("updatedAt").asString())).isEqualTo(confirmation.occurredAt());
        }
    }

    @Test
    void aRunnerReadsOnlyWhatASagasStreamGotSinceItsLastMessage_includingAnotherReplicasEvents() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        String stream = "order-" + order;
        List<Map<String, Long>> reads = new CopyOnWriteArrayList<>();
        // A second runner, as on another replica; the application's own `runner` plays the first.
        SagaRunner replica =
                new SagaRunner(recordingReads(reads), transactions, saga, deadlines, inbox, sagas, clock, meters);
        try {
            assertThat(replica.handle("r1", entry(new SagaMessage.StockWasReserved(order))))
                    .isEqualTo("CHARGING_PAYMENT");
            // The other replica moves the saga on: the first one's kept prefix (3 events) is now stale.
            assertThat(runner.handle("r2", entry(captured(order)))).isEqualTo("CONFIRMED");

            assertThat(replica.handle("r3", entry(new SagaMessage.StockWasReserved(order))))
                    .as("a stale prefix that decided nothing is checked, the message decided again on the saga's end")
                    .isEqualTo("CONFIRMED");
            assertThat(replica.handle("r4", entry(new SagaMessage.StockWasReserved(order))))
                    .isEqualTo("CONFIRMED");
        } finally {
            replica.close();
        }

        assertThat(reads)
                .as("whole; after the kept 3 (the check of a decision to do nothing); then nothing: the retry and the"
                        + " next message find the saga confirmed in its view (ADR 0094)")
                .containsExactly(Map.of(stream, 0L), Map.of(stream, 3L));
        assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_SAGA);
    }

    @Test
    void aRunnerDecidesAnswersDeliveredAgainAfterTheirSagasEnded_withoutReadingThoseStreams() throws Exception {
        List<UUID> ended = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID order = orderIdOf(placeOrder());
            awaitPublished("OrderPlaced", order);
            assertThat(runner.handle("e-" + order, entry(captured(order)))).isEqualTo("CONFIRMED");
            ended.add(order);
        }
        UUID running = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", running);
        List<Map<String, Long>> reads = new CopyOnWriteArrayList<>();
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        // A replica that kept nothing of these sagas, as after a restart, handed payment's answers again (a replay).
        SagaRunner replica =
                new SagaRunner(recordingReads(reads), transactions, saga, deadlines, inbox, sagas, clock, own);
        List<SagaRunner.Delivery> again = new ArrayList<>();
        ended.forEach(order -> again.add(new SagaRunner.Delivery("again-" + order, entry(captured(order)))));
        again.add(new SagaRunner.Delivery("first-" + running, entry(captured(running))));
        try {
            assertThat(replica.handleBatch(again)).containsExactly("CONFIRMED", "CONFIRMED", "CONFIRMED", "CONFIRMED");
        } finally {
            replica.close();
        }

        assertThat(reads)
                .as("only the running saga's stream is read; the ended ones are decided on their view's status")
                .containsExactly(Map.of("order-" + running, 0L));
        assertThat(own.get("sagaflow.saga.ended.unread").counter().count()).isEqualTo(3.0);
        for (UUID order : ended) {
            assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_ON_PAYMENTS_ANSWER);
        }
        assertThat(typesOf(running)).containsExactlyElementsOf(CONFIRMED_ON_PAYMENTS_ANSWER);
    }

    @Test
    void aRunnerMetersEachBatchByTheMessagesItWasHanded() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        SagaRunner replica = new SagaRunner(events, transactions, saga, deadlines, inbox, sagas, clock, own);
        try {
            assertThat(replica.handleBatch(List.of(
                            new SagaRunner.Delivery("m1", entry(new SagaMessage.StockWasReserved(order))),
                            new SagaRunner.Delivery("m2", entry(captured(order))))))
                    .containsExactly("CHARGING_PAYMENT", "CONFIRMED");
        } finally {
            replica.close();
        }

        DistributionSummary sizes = own.get("sagaflow.saga.batch.size").summary();
        assertThat(sizes.count()).isEqualTo(1);
        assertThat(sizes.totalAmount()).isEqualTo(2.0);
    }

    @Test
    void aRunnerThatKeptASagasStreamDoesNotReadItAgain_itsAppendCheckingTheVersion() throws Exception {
        UUID order = orderIdOf(placeOrder());
        awaitPublished("OrderPlaced", order);
        String stream = "order-" + order;
        List<Map<String, Long>> reads = new CopyOnWriteArrayList<>();
        SagaRunner replica =
                new SagaRunner(recordingReads(reads), transactions, saga, deadlines, inbox, sagas, clock, meters);
        try {
            assertThat(replica.handle("k1", entry(new SagaMessage.StockWasReserved(order))))
                    .isEqualTo("CHARGING_PAYMENT");
            assertThat(replica.handle("k2", entry(captured(order)))).isEqualTo("CONFIRMED");
        } finally {
            replica.close();
        }

        assertThat(reads)
                .as("read once; the second message appends on the kept prefix")
                .containsExactly(Map.of(stream, 0L));
        assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_SAGA);
    }

    @Test
    void aRunnerToldOfThePlacementDecidesTheSagasFirstAnswerWithoutReadingItsStream() throws Exception {
        UUID order = orderIdOf(placeOrder());
        String stream = "order-" + order;
        List<Map<String, Long>> reads = new CopyOnWriteArrayList<>();
        SagaRunner replica =
                new SagaRunner(recordingReads(reads), transactions, saga, deadlines, inbox, sagas, clock, meters);
        try {
            // What OrderPlacement hands the runner of its replica once the order committed.
            replica.placed(events.readStream(stream, 1).getFirst());
            assertThat(replica.handle("p1", entry(new SagaMessage.StockWasReserved(order))))
                    .isEqualTo("CHARGING_PAYMENT");
            assertThat(replica.handle("p2", entry(captured(order)))).isEqualTo("CONFIRMED");
        } finally {
            replica.close();
        }

        assertThat(reads)
                .as("both messages append on what the placement handed over")
                .isEmpty();
        assertThat(typesOf(order)).containsExactlyElementsOf(CONFIRMED_SAGA);
    }

    /** {@link #events}, recording the streams and versions each {@code readStreamsAfter} asks for. */
    private EventStore recordingReads(List<Map<String, Long>> reads) {
        return (EventStore) Proxy.newProxyInstance(
                EventStore.class.getClassLoader(), new Class<?>[] {EventStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("readStreamsAfter")) {
                        @SuppressWarnings("unchecked")
                        Map<String, Long> after = (Map<String, Long>) args[0];
                        reads.add(Map.copyOf(after));
                    }
                    try {
                        return method.invoke(events, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private List<String> typesOf(UUID order) {
        return jdbc.queryForList(
                "select type from es_event where stream_id = ? order by version", String.class, "order-" + order);
    }

    /** Payment's answer to the order's saga payment, as the saga hears it: captured, the whole total. */
    private static SagaMessage captured(UUID order) {
        return new SagaMessage.PaymentWasCaptured(
                order, PaymentContracts.sagaPaymentIdOf(order), new BigDecimal("21.60"));
    }

    private static SagaInboxEntry entry(SagaMessage message) {
        return SagaInboxEntry.of(
                message, EventMetadata.startingFlow(message.orderId().toString()));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void badOrdersAreRejectedWithProblemDetails() throws Exception {
        assertThat(send(
                                "POST",
                                "/api/orders",
                                "{\"customerId\":\"" + customer + "\",\"lineItems\":[]," + "\"shippingAddress\":\"x\"}")
                        .statusCode())
                .isEqualTo(400);
        HttpResponse<String> unknownProduct = send(
                "POST",
                "/api/orders",
                "{\"customerId\":\"" + customer
                        + "\",\"lineItems\":[{\"productId\":\"" + UUID.randomUUID() + "\",\"quantity\":1}],"
                        + "\"shippingAddress\":\"x\"}");
        assertThat(unknownProduct.statusCode()).isEqualTo(422);
        assertThat(unknownProduct.body()).contains("PRODUCT_NOT_FOUND");
        HttpResponse<String> unknownCustomer = send(
                "POST",
                "/api/orders",
                "{\"customerId\":\"" + UUID.randomUUID() + "\",\"lineItems\":[{\"productId\":\"" + product
                        + "\",\"quantity\":1}],\"shippingAddress\":\"x\"}");
        assertThat(unknownCustomer.statusCode()).isEqualTo(422);
        assertThat(unknownCustomer.body()).contains("CUSTOMER_NOT_FOUND");
        answer(
                "customer-" + customer,
                "CustomerStatusChanged",
                Map.of("customerId", customer, "status", "SUSPENDED", "reason", "test"));
        await().atMost(Duration.ofSeconds(45)).until(() -> placeOrder().statusCode() == 422);
        assertThat(placeOrder().body()).contains("CUSTOMER_NOT_ACTIVE");
        assertThat(send("GET", "/api/orders/" + UUID.randomUUID(), null).statusCode())
                .isEqualTo(404);
        assertThat(send("GET", "/api/sagas/not-a-uuid", null).statusCode()).isEqualTo(400);
        assertThat(send("GET", "/api/sagas?status=NOPE", null).statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> placeOrder() throws Exception {
        return send(
                "POST",
                "/api/orders",
                "{\"customerId\":\"" + customer + "\",\"lineItems\":[{\"productId\":\"" + product
                        + "\",\"quantity\":2}],\"shippingAddress\":\"1 Main St\"}");
    }

    private HttpResponse<String> placeOrder(String idempotencyKey, int quantity) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/orders"))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerId\":\"" + customer
                        + "\",\"lineItems\":[{\"productId\":\"" + product + "\",\"quantity\":" + quantity
                        + "}],\"shippingAddress\":\"1 Main St\"}"))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private UUID orderIdOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        JsonNode body = json.readTree(response.body());
        assertThat(body.get("status").asString()).isEqualTo("PENDING");
        assertThat(body.get("total").decimalValue()).isEqualByComparingTo("21.60");
        return UUID.fromString(body.get("orderId").asString());
    }

    private JsonNode awaitStatus(UUID order, String status) throws Exception {
        await().atMost(Duration.ofSeconds(45))
                .until(() ->
                        status.equals(get("/api/orders/" + order).get("status").asString()));
        return get("/api/orders/" + order);
    }

    private EventMessage awaitPublished(String type, UUID order) {
        await().atMost(Duration.ofSeconds(45))
                .until(() -> published.stream()
                        .anyMatch(m -> m.type().equals(type) && m.streamId().equals("order-" + order)));
        return published.stream()
                .filter(m -> m.type().equals(type) && m.streamId().equals("order-" + order))
                .findFirst()
                .orElseThrow();
    }

    /** Payment's answer to inventory's reservation of the order: captured, the whole total. */
    private void answerPaymentCaptured(UUID order) {
        answerPaymentCapturedIn(UUID.randomUUID().toString(), order);
    }

    /** The same answer, in the flow {@code correlationId}. */
    private void answerPaymentCapturedIn(String correlationId, UUID order) {
        answerIn(correlationId, "payment-" + order, "PaymentCaptured", paymentPayload(order));
    }

    /** What every answer of payment about the order's saga payment carries: its id, the order, customer and total. */
    private Map<String, Object> paymentPayload(UUID order) {
        return Map.of(
                "paymentId",
                PaymentContracts.sagaPaymentIdOf(order),
                "orderId",
                order,
                "customerId",
                customer,
                "amount",
                21.60);
    }

    /** Publishes an event as another service's outbox would. */
    private void answer(String stream, String type, Map<String, Object> payload) {
        answerIn(UUID.randomUUID().toString(), stream, type, payload);
    }

    /** Publishes an event in the flow {@code correlationId}, as a participant answering within it would. */
    private void answerIn(String correlationId, String stream, String type, Map<String, Object> payload) {
        bus.publish(List.of(message(correlationId, stream, type, payload)));
    }

    private EventMessage message(String stream, String type, Map<String, Object> payload) {
        return message(UUID.randomUUID().toString(), stream, type, payload);
    }

    private EventMessage message(String correlationId, String stream, String type, Map<String, Object> payload) {
        return new EventMessage(
                UUID.randomUUID().toString(),
                types.get(type).publisher(),
                stream,
                1,
                type,
                1,
                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()),
                correlationId,
                null,
                null,
                null,
                json.writeValueAsString(payload));
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = send("GET", path, null);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    private HttpResponse<String> conditionalGet(UUID order, String etag, String prefer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/api/orders/" + order))
                .header("If-None-Match", etag);
        if (prefer != null) {
            request.header("Prefer", prefer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> conditionalGetQuietly(UUID order, String etag, String prefer) {
        try {
            return conditionalGet(order, etag, prefer);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json");
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
