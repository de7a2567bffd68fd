package io.sagaflow.inventory.product;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.inventory.InventoryHttp;
import io.sagaflow.inventory.InventoryHttp.Reply;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductDecider;
import io.sagaflow.inventory.product.domain.ProductState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * No oversell under concurrency: of many racing reservations exactly as many units as are on hand are granted. They
 * are decided in groups (ADR 0106), and each answer still shows the stock its own decision left.
 */
@SagaflowIntegrationTest
class StockReservationConcurrencyIT {

    private static final int ON_HAND = 100;
    private static final int REQUESTS = 1_000;
    private static final int CLIENT_THREADS = 16;

    @Value("${local.server.port}")
    int port;

    @Autowired
    EventStore events;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @Test
    void ofAThousandConcurrentOneUnitReservationsExactlyTheHundredUnitsOnHandAreGranted() throws Exception {
        InventoryHttp http = new InventoryHttp(port);
        String productId = http.createProduct("SKU-" + UUID.randomUUID(), ON_HAND);

        Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Integer> reservedAfterEach = new ConcurrentLinkedQueue<>();
        DistributionSummary groups =
                meters.get("sagaflow.inventory.stock.change.group").summary();
        long groupsBefore = groups.count();
        double changesBefore = groups.totalAmount();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> requests = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                requests.add(clients.submit(() -> {
                    start.await();
                    Reply reply = http.post(
                            "/api/products/" + productId + "/stock/reserve", """
                            {"quantity":1,"orderId":"%s"}""".formatted(UUID.randomUUID()));
                    outcomes.merge(reply.status() + " " + reply.code(), 1, Integer::sum);
                    if (reply.status() == 200) {
                        reservedAfterEach.add(reply.intField("quantityReserved"));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> request : requests) {
                request.get();
            }
        } finally {
            clients.shutdownNow();
        }

        assertThat(outcomes).containsOnly(Map.entry("200 null", ON_HAND), Map.entry("409 INSUFFICIENT_STOCK", 900));
        // Each granted reservation was answered with the stock right after it: 1, 2, ... 100 units reserved, each once,
        // although they were decided together, and refusals among them.
        assertThat(reservedAfterEach)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(1, ON_HAND).boxed().toList());
        assertThat(groups.totalAmount() - changesBefore).isEqualTo(REQUESTS);
        assertThat(groups.count() - groupsBefore)
                .as("requests that arrive while a transaction is in flight share the next one")
                .isLessThan(REQUESTS);

        Reply product = http.get("/api/products/" + productId);
        assertThat(product.intField("quantityReserved")).isEqualTo(ON_HAND);
        assertThat(product.intField("availableQuantity")).isZero();
        assertThat(jdbc.queryForObject(
                        "select count(*) from stock_reservation where product_id = ?::uuid and active",
                        Integer.class,
                        productId))
                .isEqualTo(ON_HAND);
        assertThat(http.get("/api/admin/audit/stock").body().get("consistent").asBoolean())
                .isTrue();

        // The stream itself, folded by the decider, says the same as the view the decisions were taken on.
        List<EventEnvelope<Object>> stream = events.readStream("product-" + productId, 1);
        assertThat(stream).hasSize(1 + ON_HAND);
        ProductDecider decider = new ProductDecider();
        ProductState replayed = decider.initialState();
        for (EventEnvelope<Object> event : stream) {
            replayed = decider.evolve(replayed, (DomainEvent) event.payload());
        }
        assertThat(replayed).isInstanceOfSatisfying(Product.class, state -> {
            assertThat(state.quantityReserved()).isEqualTo(ON_HAND);
            assertThat(state.reservations()).hasSize(ON_HAND);
        });
    }
}
