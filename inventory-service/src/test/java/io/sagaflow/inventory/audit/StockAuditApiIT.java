package io.sagaflow.inventory.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.inventory.InventoryHttp;
import io.sagaflow.inventory.InventoryHttp.Reply;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;

/** The stock audit's two endpoints: per-product figures, and the active reservations paged by whole orders. */
@SagaflowIntegrationTest
class StockAuditApiIT {

    @Value("${local.server.port}")
    int port;

    private InventoryHttp http;

    /** One row of a reservations page. */
    private record Row(String orderId, String productId, int quantity) {}

    @BeforeEach
    void client() {
        http = new InventoryHttp(port);
    }

    @Test
    void theStockFiguresSumEveryProductsActiveReservations() {
        String product = http.createProduct(sku(), 10);
        String kept = UUID.randomUUID().toString();
        String released = UUID.randomUUID().toString();
        reserve(product, 2, kept);
        reserve(product, 3, released);
        assertThat(http.post("/api/products/" + product + "/stock/release", """
                        {"quantity":3,"orderId":"%s","reason":"test"}""".formatted(released))
                        .status())
                .isEqualTo(200);

        Reply audit = http.get("/api/admin/audit/stock");

        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.body().get("consistent").asBoolean()).isTrue();
        JsonNode figures = product(audit.body(), product);
        assertThat(figures.get("quantityOnHand").asInt()).isEqualTo(10);
        assertThat(figures.get("quantityReserved").asInt()).isEqualTo(2);
        assertThat(figures.get("quantityHeld").asLong()).isEqualTo(2);
        assertThat(figures.get("consistent").asBoolean()).isTrue();
        assertThat(figures.has("reservedByOrder")).as("no per-order figures").isFalse();
    }

    @Test
    void reservationsArePagedByWholeOrders_eachRowExactlyOnce_inPostgresUuidOrder() {
        List<String> products =
                List.of(http.createProduct(sku(), 100), http.createProduct(sku(), 100), http.createProduct(sku(), 100));
        // Five orders under one random high half, so no other test's order falls between them; the low halves put
        // two orders above 0x7fff... where UUID.compareTo (signed) and PostgreSQL (unsigned) disagree.
        long high = ThreadLocalRandom.current().nextLong();
        UUID start = new UUID(high, 0);
        List<UUID> orders = List.of(
                new UUID(high, 1),
                new UUID(high, 2),
                new UUID(high, 0x7000_0000_0000_0000L),
                new UUID(high, 0x8000_0000_0000_0001L),
                new UUID(high, 0xf000_0000_0000_0000L));
        List<Row> expected = new ArrayList<>();
        int[][] quantities = {{1, 2, 0}, {0, 0, 1}, {3, 1, 2}, {0, 4, 0}, {5, 0, 6}};
        for (int o = 0; o < orders.size(); o++) {
            for (int p = 0; p < products.size(); p++) {
                if (quantities[o][p] > 0) {
                    reserve(products.get(p), quantities[o][p], orders.get(o).toString());
                    expected.add(new Row(orders.get(o).toString(), products.get(p), quantities[o][p]));
                }
            }
        }
        // A released reservation is no longer active, and not listed.
        reserve(products.get(0), 7, orders.get(1).toString());
        assertThat(http.post("/api/products/" + products.get(0) + "/stock/release", """
                        {"quantity":7,"orderId":"%s","reason":"test"}""".formatted(orders.get(1)))
                        .status())
                .isEqualTo(200);
        expected.sort(Comparator.comparing(Row::orderId).thenComparing(Row::productId));

        List<Row> seen = new ArrayList<>();
        Set<String> ordersOfEarlierPages = new HashSet<>();
        String after = start.toString();
        int pages = 0;
        while (true) {
            Reply page = http.get("/api/admin/audit/stock/reservations?limit=2&after=" + after);
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            List<Row> rows = rows(page.body());
            Set<String> ordersOfPage = new LinkedHashSet<>();
            rows.forEach(row -> ordersOfPage.add(row.orderId()));
            assertThat(ordersOfPage).as("whole orders, at most two").hasSizeLessThanOrEqualTo(2);
            assertThat(ordersOfPage).as("an order on one page only").noneMatch(ordersOfEarlierPages::contains);
            ordersOfEarlierPages.addAll(ordersOfPage);
            List<Row> ours = rows.stream()
                    .filter(row -> row.orderId().startsWith(prefixOf(start)))
                    .toList();
            seen.addAll(ours);
            pages++;
            // A page of fewer orders than the limit is the last; one reaching past our orders ends the walk too.
            if (ordersOfPage.size() < 2 || ours.size() < rows.size()) {
                break;
            }
            after = rows.getLast().orderId();
        }

        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(seen.stream().map(Row::orderId).distinct())
                .containsExactlyElementsOf(orders.stream().map(UUID::toString).toList());
    }

    @Test
    void theFirstPageStartsAtTheLowestOrderAndALimitOfOrdersNotRows() {
        String product = http.createProduct(sku(), 10);
        reserve(product, 1, UUID.randomUUID().toString());

        Reply first = http.get("/api/admin/audit/stock/reservations?limit=1");
        assertThat(first.status()).isEqualTo(200);
        List<Row> rows = rows(first.body());
        assertThat(rows).isNotEmpty();
        assertThat(rows.stream().map(Row::orderId).distinct()).hasSize(1);

        Reply byDefault = http.get("/api/admin/audit/stock/reservations");
        assertThat(byDefault.status()).isEqualTo(200);
        assertThat(rows(byDefault.body()).getFirst()).isEqualTo(rows.getFirst());
        assertThat(http.get("/api/admin/audit/stock/reservations?limit=10000").status())
                .isEqualTo(200);
    }

    @Test
    void aBadAfterOrLimitIs400Problem() {
        for (String query : List.of("after=not-a-uuid", "limit=many", "after=1234")) {
            Reply refused = http.get("/api/admin/audit/stock/reservations?" + query);
            assertThat(refused.status()).as(query).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.code()).isEqualTo("INVALID_PARAMETER");
        }
        for (String limit : List.of("0", "-1", "10001")) {
            Reply refused = http.get("/api/admin/audit/stock/reservations?limit=" + limit);
            assertThat(refused.status()).as("limit=" + limit).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.code()).isEqualTo("VALIDATION_FAILED");
        }
    }

    @Test
    void bothEndpointsAreInTheOpenApiDescription() {
        JsonNode paths = http.get("/v3/api-docs").body().get("paths");
        assertThat(paths.has("/api/admin/audit/stock")).isTrue();
        assertThat(paths.has("/api/admin/audit/stock/reservations")).isTrue();
    }

    private void reserve(String productId, int quantity, String orderId) {
        Reply reply = http.post("/api/products/" + productId + "/stock/reserve", """
                {"quantity":%d,"orderId":"%s"}""".formatted(quantity, orderId));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    private static List<Row> rows(JsonNode page) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode row : page.get("reservations")) {
            rows.add(new Row(
                    row.get("orderId").asString(),
                    row.get("productId").asString(),
                    row.get("quantity").asInt()));
        }
        return rows;
    }

    /** The canonical form of the id's high half, which every order of the test shares. */
    private static String prefixOf(UUID start) {
        return start.toString().substring(0, 19);
    }

    private static JsonNode product(JsonNode audit, String productId) {
        for (JsonNode product : audit.get("products")) {
            if (product.get("productId").asString().equals(productId)) {
                return product;
            }
        }
        throw new AssertionError("product " + productId + " not in the audit");
    }

    private static String sku() {
        return "SKU-" + UUID.randomUUID();
    }
}
