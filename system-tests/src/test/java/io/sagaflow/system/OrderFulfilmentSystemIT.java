package io.sagaflow.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.ringbuffer.Ringbuffer;
import io.sagaflow.account.contracts.AccountContracts;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.test.messaging.InMemoryCheckpoints;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.system.Api.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The order fulfilment saga across the four real services, each in its own process, two order-service replicas in
 * one per-service cluster, and an API gateway in front of them as {@code bin/sagaflow start --replicas order=2} puts
 * one. After every scenario the system-wide invariants are checked through the audit endpoint.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrderFulfilmentSystemIT {

    // Long enough that 1 000 concurrent orders on two shared cores finish before it: a deadline would cancel them.
    private static final Duration SAGA_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMPENSATION_TIMEOUT = Duration.ofSeconds(5);

    private static SagaflowSystem system;
    private static ReliableTopicEventBus bus;
    private static final List<EventMessage> observed = new CopyOnWriteArrayList<>();
    private static Subscription observing;
    private static String customerId;

    @BeforeAll
    static void startSystem() throws Exception {
        system = SagaflowSystem.startWithGateways(2, SAGA_TIMEOUT, COMPENSATION_TIMEOUT, 1, Map.of());
        bus = new ReliableTopicEventBus(
                system.sharedMember, HazelcastNames.EVENT_TOPIC_PREFIX, 8, Duration.ofSeconds(30));
        observing = bus.subscribe("system-test-observer", everyTopicFamily(), new InMemoryCheckpoints(), observed::add);
        customerId = Api.post(
                        system.account.url() + "/api/customers",
                        Map.of("email", "ada-" + UUID.randomUUID() + "@example.com", "name", "Ada Lovelace"))
                .ok()
                .get("customerId")
                .asString();
        // The order service learns of the customer from account's events: wait until it accepts an order.
        String warmUp = newProduct(1_000, "1.00");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Api.post(
                                        system.order().url() + "/api/orders",
                                        Map.of(
                                                "customerId",
                                                customerId,
                                                "lineItems",
                                                List.of(Map.of("productId", warmUp, "quantity", 1)),
                                                "shippingAddress",
                                                "x"))
                                .status()
                        == 201);
    }

    @AfterAll
    static void stopSystem() throws Exception {
        if (observing != null) {
            observing.cancel();
        }
        if (system != null) {
            system.close();
        }
    }

    @AfterEach
    void invariantsHold() {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    JsonNode audit =
                            Api.get(system.order().url() + "/api/admin/audit").ok();
                    return audit.get("nonTerminalSagas").asLong() == 0;
                });
        JsonNode audit = Api.get(system.order().url() + "/api/admin/audit").ok();
        assertThat(audit.get("violations").toString()).isEqualTo("[]");
        assertThat(audit.get("consistent").asBoolean()).isTrue();
    }

    @Test
    @Order(1)
    void happyPath_confirmed_stockReserved_paymentCaptured() {
        String product = newProduct(10, "10.00");
        String order = placeOrder(product, 2);

        JsonNode confirmed = awaitTerminal(order);
        assertThat(confirmed.get("status").asString()).isEqualTo("CONFIRMED");
        JsonNode stock =
                Api.get(system.inventory.url() + "/api/products/" + product).ok();
        assertThat(stock.get("quantityReserved").asInt()).isEqualTo(2);
        assertThat(stock.get("quantityOnHand").asInt()).isEqualTo(10);
        JsonNode payments =
                Api.get(system.payment.url() + "/api/payments/order/" + order).ok();
        assertThat(payments).hasSize(1);
        assertThat(payments.get(0).get("status").asString()).isEqualTo("CAPTURED");
        assertThat(payments.get(0).get("amount").decimalValue())
                .isEqualByComparingTo(confirmed.get("total").decimalValue());
        JsonNode saga = Api.get(system.order().url() + "/api/sagas/" + order).ok();
        assertThat(saga.get("status").asString()).isEqualTo("CONFIRMED");
    }

    @Test
    @Order(2)
    void outOfStock_cancelled_noStockChanged_noPayment() {
        String product = newProduct(1, "10.00");
        String order = placeOrder(product, 2);

        JsonNode cancelled = awaitTerminal(order);
        assertThat(cancelled.get("status").asString()).isEqualTo("CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("OUT_OF_STOCK");
        JsonNode stock =
                Api.get(system.inventory.url() + "/api/products/" + product).ok();
        assertThat(stock.get("quantityReserved").asInt()).isZero();
        assertThat(stock.get("quantityOnHand").asInt()).isEqualTo(1);
        assertThat(Api.get(system.payment.url() + "/api/payments/order/" + order)
                        .ok())
                .isEmpty();
    }

    @Test
    @Order(3)
    void declinedPayment_cancelled_stockReleasedOnce_nothingCaptured() {
        String product = newProduct(5, "20000.00");
        String order = placeOrder(product, 1);

        JsonNode cancelled = awaitTerminal(order);
        assertThat(cancelled.get("status").asString()).isEqualTo("CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("AMOUNT_ABOVE_LIMIT");
        assertThat(Api.get(system.inventory.url() + "/api/products/" + product)
                        .ok()
                        .get("quantityReserved")
                        .asInt())
                .isZero();
        JsonNode payments =
                Api.get(system.payment.url() + "/api/payments/order/" + order).ok();
        assertThat(payments)
                .allSatisfy(p -> assertThat(p.get("status").asString()).isEqualTo("DECLINED"));
        assertThat(observedOf("StockReleased", "reservation-" + order)).hasSize(1);
    }

    @Test
    @Order(4)
    void everyEventDeliveredTwice_hasNoSecondEffect() {
        String product = newProduct(10, "10.00");
        String expensive = newProduct(3, "20000.00");
        String confirmed = placeOrder(product, 3);
        String declined = placeOrder(expensive, 1);
        awaitTerminal(confirmed);
        awaitTerminal(declined);
        int paymentsBefore = Api.get(system.payment.url() + "/api/payments/order/" + confirmed)
                        .ok()
                        .size()
                + Api.get(system.payment.url() + "/api/payments/order/" + declined)
                        .ok()
                        .size();

        List<EventMessage> replay = new ArrayList<>(observed);
        List<String> types =
                replay.stream().map(EventMessage::type).distinct().sorted().toList();
        assertThat(types)
                .contains(
                        "OrderPlaced",
                        "StockReserved",
                        "PaymentCaptured",
                        "OrderConfirmed",
                        "PaymentDeclined",
                        "StockReleaseRequested",
                        "StockReleased",
                        "OrderCancelled",
                        "ProductCreated",
                        "CustomerRegistered");
        bus.publish(replay);

        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> true);
        assertThat(status(confirmed)).isEqualTo("CONFIRMED");
        assertThat(status(declined)).isEqualTo("CANCELLED");
        assertThat(Api.get(system.inventory.url() + "/api/products/" + product)
                        .ok()
                        .get("quantityReserved")
                        .asInt())
                .isEqualTo(3);
        assertThat(Api.get(system.payment.url() + "/api/payments/order/" + confirmed)
                                .ok()
                                .size()
                        + Api.get(system.payment.url() + "/api/payments/order/" + declined)
                                .ok()
                                .size())
                .isEqualTo(paymentsBefore);
    }

    @Test
    @Order(5)
    void twoOrderReplicasAnswerEveryOrderAndSagaIdentically() throws Exception {
        String product = newProduct(100, "5.00");
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            orders.add(placeOrder(product, 1, system.orders.get(i % 2)));
        }
        int compared = 0;
        for (int round = 0; round < 10; round++) {
            for (String order : orders) {
                for (String path : List.of("/api/orders/", "/api/sagas/")) {
                    JsonNode first =
                            Api.get(system.orders.get(0).url() + path + order).ok();
                    JsonNode other =
                            Api.get(system.orders.get(1).url() + path + order).ok();
                    JsonNode again =
                            Api.get(system.orders.get(0).url() + path + order).ok();
                    if (first.equals(again)) {
                        assertThat(other).as(path + order).isEqualTo(first);
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(300);
        orders.forEach(OrderFulfilmentSystemIT::awaitTerminal);
    }

    @Test
    @Order(6)
    void aThousandConcurrentOrdersForAHundredUnits_exactlyAHundredConfirmed() throws Exception {
        String product = newProduct(100, "1.00");
        List<String> orders = new CopyOnWriteArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> sent = new ArrayList<>();
            AtomicInteger next = new AtomicInteger();
            for (int i = 0; i < 1_000; i++) {
                sent.add(clients.submit(() -> {
                    int n = next.getAndIncrement();
                    orders.add(placeOrder(product, 1, system.orders.get(n % system.orders.size())));
                }));
            }
            for (Future<?> future : sent) {
                future.get();
            }
        } finally {
            clients.shutdown();
        }
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> Api.get(system.order().url() + "/api/admin/audit")
                                .ok()
                                .get("nonTerminalSagas")
                                .asLong()
                        == 0);
        long confirmed =
                orders.stream().filter(o -> "CONFIRMED".equals(status(o))).count();
        assertThat(confirmed).isEqualTo(100);
        assertThat(orders.stream().filter(o -> "CANCELLED".equals(status(o)))).hasSize(900);
        JsonNode stock =
                Api.get(system.inventory.url() + "/api/products/" + product).ok();
        assertThat(stock.get("quantityReserved").asInt()).isEqualTo(100);
        assertThat(stock.get("availableQuantity").asInt()).isZero();
    }

    @Test
    @Order(7)
    void aParticipantDownPastTheDeadline_isCompensated_andNothingAppliesTwiceWhenItReturns() throws Exception {
        String product = newProduct(10, "10.00");
        system.payment.kill();
        String order = placeOrder(product, 1);

        await().atMost(SAGA_TIMEOUT.plusSeconds(20))
                .until(
                        () -> Api.get(system.order().url() + "/api/sagas/" + order)
                                .ok()
                                .get("status")
                                .asString(),
                        s -> s.equals("COMPENSATING") || s.equals("COMPENSATION_FAILED"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Api.get(system.inventory.url() + "/api/products/" + product)
                                .ok()
                                .get("quantityReserved")
                                .asInt()
                        == 0);

        system.restart(system.payment);
        JsonNode cancelled = awaitTerminal(order);
        assertThat(cancelled.get("status").asString()).isEqualTo("CANCELLED");
        assertThat(cancelled.get("cancellationCode").asString()).isEqualTo("DEADLINE_EXCEEDED");
        JsonNode payments =
                Api.get(system.payment.url() + "/api/payments/order/" + order).ok();
        assertThat(payments.size()).isLessThanOrEqualTo(1);
        if (payments.size() == 1) {
            assertThat(payments.get(0).get("status").asString()).isIn("REFUNDED", "DECLINED");
        }
    }

    @Test
    @Order(8)
    void anOrderReplicaKilledMidRun_everyKeyedOrderThroughTheGatewayIsPlacedOnce_andEverySagaConfirmed()
            throws Exception {
        String product = newProduct(1_000, "2.00");
        long ordersBefore = audit().get("ordersChecked").asLong();
        String gateway = system.gateways.getFirst().url();
        Map<String, Response> answers = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String key = "failover-" + i + "-" + UUID.randomUUID();
                sent.add(clients.submit(
                        () -> answers.put(key, Api.postKeyed(gateway + "/api/orders", order(product, key), key))));
            }
            // Killed with orders in flight on both replicas: the gateway spreads them round robin.
            await().atMost(Duration.ofSeconds(60)).until(() -> answers.size() >= 40);
            system.orders.get(1).kill();
            for (Future<?> future : sent) {
                future.get();
            }
        } finally {
            clients.shutdown();
        }
        // Each request that reached the dead replica, or found it gone, was sent again by the gateway to the live
        // one with its key (ADR 0012, 0070): every client got its order, none got a 5xx.
        Map<String, String> failed = new TreeMap<>();
        answers.forEach((key, answer) -> {
            if (answer.status() != 201) {
                failed.put(key, answer.status() + " " + answer.body());
            }
        });
        assertThat(failed).isEmpty();
        Set<String> orders = new HashSet<>();
        answers.values()
                .forEach(answer -> orders.add(answer.body().get("orderId").asString()));
        assertThat(orders).hasSize(200);

        await().atMost(SAGA_TIMEOUT.multipliedBy(4))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> orders.stream()
                        .allMatch(o -> List.of("CONFIRMED", "CANCELLED").contains(status(o))));
        // Placed once each: the store holds exactly the 200 orders the clients were answered with, no copy that a
        // dead replica placed before the gateway sent its request again.
        assertThat(audit().get("ordersChecked").asLong() - ordersBefore).isEqualTo(200);
        // And every saga ran to its confirmation: the stock cannot run out and the amounts are far below the credit
        // limit, so a cancelled order here could only be one whose saga lost a message or its state with the dead
        // replica and was ended by its deadline (its compensation would hide the loss from the audit).
        Map<String, String> notConfirmed = new TreeMap<>();
        orders.forEach(o -> {
            String status = status(o);
            if (!"CONFIRMED".equals(status)) {
                notConfirmed.put(o, status);
            }
        });
        assertThat(notConfirmed).isEmpty();
        assertThat(Api.get(system.inventory.url() + "/api/products/" + product)
                        .ok()
                        .get("quantityReserved")
                        .asLong())
                .isEqualTo(200);
    }

    @Test
    @Order(9)
    void theAuditFindsStockAndMoneyACancelledOrderKeeps_acrossItsPages() {
        String product = newProduct(10, "10.00");
        String confirmed = placeOrder(product, 2);
        String cancelled = placeOrder(newProduct(1, "10.00"), 2);
        assertThat(awaitTerminal(confirmed).get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(awaitTerminal(cancelled).get("status").asString()).isEqualTo("CANCELLED");
        JsonNode before = Api.get(system.order().url() + "/api/admin/audit").ok();
        assertThat(before.get("violations").toString()).isEqualTo("[]");
        assertThat(before.get("ordersChecked").asLong()).isGreaterThan(10L * SagaflowSystem.AUDIT_PAGE_SIZE);

        // Stock and money for the cancelled order, straight through the participants' APIs.
        Api.post(
                        system.inventory.url() + "/api/products/" + product + "/stock/reserve",
                        Map.of("quantity", 1, "orderId", cancelled))
                .ok();
        String payment = Api.post(
                        system.payment.url() + "/api/payments",
                        Map.of("orderId", cancelled, "customerId", UUID.randomUUID(), "amount", 5))
                .ok()
                .get("paymentId")
                .asString();

        JsonNode audit = Api.get(system.order().url() + "/api/admin/audit").ok();
        assertThat(audit.get("consistent").asBoolean()).isFalse();
        assertThat(audit.get("ordersChecked").asLong())
                .isEqualTo(before.get("ordersChecked").asLong());
        List<String> violations = new ArrayList<>();
        audit.get("violations").forEach(v -> violations.add(v.asString()));
        assertThat(violations)
                .containsExactlyInAnyOrder(
                        "cancelled order " + cancelled + " still holds 1 of product " + product,
                        "product " + product + ": reserved for orders 3, confirmed orders hold 2",
                        "order " + cancelled + " (CANCELLED) has 5.00 charged, expected 0");

        // Given back, the invariants hold again (checked after the test).
        Api.post(
                        system.inventory.url() + "/api/products/" + product + "/stock/release",
                        Map.of("quantity", 1, "orderId", cancelled, "reason", "audit test"))
                .ok();
        Api.post(system.payment.url() + "/api/payments/" + payment + "/refund", Map.of("reason", "audit test"))
                .ok();
    }

    @Test
    @Order(10)
    void aSharedMemberKilledMidRun_everySagaConfirmed_andEveryProductCreatedMeanwhileIsLearnt() throws Exception {
        String product = newProduct(1_000, "1.00");
        List<String> placed = new CopyOnWriteArrayList<>();
        List<String> created = new CopyOnWriteArrayList<>();
        // The order replicas still running (an earlier scenario killed one).
        List<ServiceProcess> replicas =
                system.orders.stream().filter(ServiceProcess::isAlive).toList();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                ServiceProcess replica = replicas.get(i % replicas.size());
                sent.add(clients.submit(() -> placed.add(placeOrder(product, 1, replica))));
                if (i % 10 == 0) {
                    sent.add(clients.submit(() ->
                            created.add(Api.post(system.inventory.url() + "/api/products", Api.newProduct(10, "1.00"))
                                    .ok()
                                    .get("productId")
                                    .asString())));
                }
                if (i == 50) {
                    // Half the shared cluster's partitions, the ringbuffers of half the topics among them, lose their
                    // owner at once; their backups on the first member take over.
                    system.secondSharedMember.getLifecycleService().terminate();
                }
                Thread.sleep(20);
            }
            for (Future<?> request : sent) {
                request.get(1, TimeUnit.MINUTES);
            }
        } finally {
            clients.shutdownNow();
        }

        assertThat(placed).hasSize(150);
        for (String order : placed) {
            assertThat(awaitTerminal(order).get("status").asString()).as(order).isEqualTo("CONFIRMED");
        }
        // The order service learns each product only from inventory's events on the shared cluster's topics.
        assertThat(created).hasSize(15);
        for (String productId : created) {
            await().atMost(Duration.ofSeconds(30)).until(() -> probe(productId));
        }
    }

    @Test
    @Order(11)
    void anOrderServiceAwayLongerThanTheTopicsTimeToLive_learnsEveryProductCreatedMeanwhile() throws Exception {
        // Shards that never carried a product: the order service has handled no message there, and only the checkpoint
        // its first subscription stored tells it, back, that it missed one (ADR 0097; CI once failed on such a shard).
        Set<Integer> neverUsed = shardsThatNeverCarriedAMessage(InventoryContracts.PRODUCTS);
        List<ServiceProcess> replicas =
                system.orders.stream().filter(ServiceProcess::isAlive).toList();
        for (ServiceProcess replica : replicas) {
            replica.kill();
        }
        List<String> created = new ArrayList<>();
        // Five products, and more until one lands on such a shard if one is left (each lands on one of 8 at random).
        while (created.size() < 5
                || !neverUsed.isEmpty() && created.stream().noneMatch(p -> neverUsed.contains(shardOf(p)))) {
            assertThat(created)
                    .as("products created to reach one of the shards %s", neverUsed)
                    .hasSizeLessThan(100);
            created.add(Api.post(system.inventory.url() + "/api/products", Api.newProduct(10, "1.00"))
                    .ok()
                    .get("productId")
                    .asString());
        }
        // Every product's event expires unread: the order service's consumer is away for longer than the topic
        // keeps it, and only inventory, which published it, can send it again (ADR 0093).
        await().pollDelay(SagaflowSystem.TOPIC_TTL)
                .atMost(SagaflowSystem.TOPIC_TTL.plusSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> topicsHoldNoMessage(InventoryContracts.PRODUCTS));

        for (ServiceProcess replica : replicas) {
            system.restart(replica);
        }

        for (String productId : created) {
            await().atMost(Duration.ofSeconds(60)).until(() -> probe(productId));
        }
    }

    /** The shards of {@code publisher}'s topic on which nothing was ever published. */
    private static Set<Integer> shardsThatNeverCarriedAMessage(String publisher) {
        Set<Integer> shards = new HashSet<>();
        for (int shard = 0; shard < bus.shards(); shard++) {
            var ringbuffer = ringbuffer(publisher, shard);
            if (ringbuffer.tailSequence() < 0) {
                shards.add(shard);
            }
        }
        return shards;
    }

    private static Ringbuffer<Object> ringbuffer(String publisher, int shard) {
        return system.sharedMember.getRingbuffer(
                HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + bus.topicName(publisher, shard));
    }

    private static int shardOf(String productId) {
        return bus.shardOf(InventoryContracts.PRODUCT_STREAM + productId);
    }

    /** Whether every topic of {@code publisher} is empty on the shared cluster: its messages expired or were none. */
    private static boolean topicsHoldNoMessage(String publisher) {
        for (int shard = 0; shard < bus.shards(); shard++) {
            var ringbuffer = ringbuffer(publisher, shard);
            if (ringbuffer.headSequence() <= ringbuffer.tailSequence()) {
                return false;
            }
        }
        return true;
    }

    private static String newProduct(int quantity, String price) {
        String productId = Api.post(system.inventory.url() + "/api/products", Api.newProduct(quantity, price))
                .ok()
                .get("productId")
                .asString();
        // The order service learns of the product from inventory's events.
        await().atMost(Duration.ofSeconds(30)).until(() -> probe(productId));
        return productId;
    }

    private static boolean probe(String productId) {
        Response response = Api.post(
                system.order().url() + "/api/orders",
                Map.of(
                        "customerId", UUID.randomUUID(),
                        "lineItems", List.of(Map.of("productId", productId, "quantity", 1)),
                        "shippingAddress", "x"));
        // Products are checked before the customer: an unknown customer means the product is known.
        return response.status() == 422
                && response.body().get("code").asString().equals("CUSTOMER_NOT_FOUND");
    }

    private static JsonNode audit() {
        return Api.get(system.order().url() + "/api/admin/audit").ok();
    }

    private static Map<String, Object> order(String product, String shippingAddress) {
        return Map.of(
                "customerId",
                customerId,
                "lineItems",
                List.of(Map.of("productId", product, "quantity", 1)),
                "shippingAddress",
                shippingAddress);
    }

    private static String placeOrder(String product, int quantity) {
        return placeOrder(product, quantity, system.order());
    }

    private static String placeOrder(String product, int quantity, ServiceProcess replica) {
        Response placed = Api.post(
                replica.url() + "/api/orders",
                Map.of(
                        "customerId",
                        customerId,
                        "lineItems",
                        List.of(Map.of("productId", product, "quantity", quantity)),
                        "shippingAddress",
                        "1 Main St"));
        assertThat(placed.status()).as(String.valueOf(placed.body())).isEqualTo(201);
        assertThat(placed.body().get("status").asString()).isEqualTo("PENDING");
        return placed.body().get("orderId").asString();
    }

    private static JsonNode awaitTerminal(String order) {
        // Looks at once first: a scenario that awaits many orders finds most of them ended already.
        await().atMost(SAGA_TIMEOUT.multipliedBy(6))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> List.of("CONFIRMED", "CANCELLED").contains(status(order)));
        return Api.get(system.order().url() + "/api/orders/" + order).ok();
    }

    private static String status(String order) {
        return Api.get(system.order().url() + "/api/orders/" + order)
                .ok()
                .get("status")
                .asString();
    }

    /** The topics of all four contracts' published events (ADR 0019, 0036). */
    private static Set<String> everyTopicFamily() {
        Set<String> families = new HashSet<>();
        families.add(AccountContracts.PUBLISHER);
        families.addAll(InventoryContracts.PUBLISHERS);
        families.addAll(OrderContracts.PUBLISHERS);
        families.add(PaymentContracts.PUBLISHER);
        return families;
    }

    private static List<EventMessage> observedOf(String type, String stream) {
        return observed.stream()
                .filter(m -> m.type().equals(type) && m.streamId().equals(stream))
                .toList();
    }
}
