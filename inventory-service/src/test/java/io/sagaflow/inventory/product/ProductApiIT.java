package io.sagaflow.inventory.product;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.inventory.InventoryHttp;
import io.sagaflow.inventory.InventoryHttp.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;

/** The product REST API end to end, every answer it can give included. */
@SagaflowIntegrationTest
class ProductApiIT {

    @Value("${local.server.port}")
    int port;

    private InventoryHttp http;

    @BeforeEach
    void client() {
        http = new InventoryHttp(port);
    }

    @Test
    void creatingAProductAnswers201WithItsLocationAndEveryField() {
        String sku = sku();
        Reply created = http.post("/api/products", """
                {"sku":"%s","name":"Kettle","description":"Boils water","price":19.9,"quantityOnHand":7,
                 "category":"kitchen"}""".formatted(sku));

        assertThat(created.status()).isEqualTo(201);
        JsonNode product = created.body();
        String id = product.get("productId").asString();
        assertThat(created.location())
                .hasValueSatisfying(location -> assertThat(location).endsWith("/api/products/" + id));
        assertThat(product.get("sku").asString()).isEqualTo(sku);
        assertThat(product.get("name").asString()).isEqualTo("Kettle");
        assertThat(product.get("description").asString()).isEqualTo("Boils water");
        assertThat(product.get("price").decimalValue()).isEqualByComparingTo("19.90");
        assertThat(created.raw()).contains("\"price\":19.90");
        assertThat(product.get("quantityOnHand").asInt()).isEqualTo(7);
        assertThat(product.get("quantityReserved").asInt()).isZero();
        assertThat(product.get("availableQuantity").asInt()).isEqualTo(7);
        assertThat(product.get("category").asString()).isEqualTo("kitchen");
        assertThat(product.get("status").asString()).isEqualTo("ACTIVE");
        Instant createdAt = Instant.parse(product.get("createdAt").asString());
        assertThat(Instant.parse(product.get("updatedAt").asString())).isEqualTo(createdAt);

        Reply fetched = http.get("/api/products/" + id);
        assertThat(fetched.status()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(product);
    }

    @Test
    void optionalFieldsMayBeLeftOutAndThePriceIsRoundedHalfEvenToCents() {
        Reply created = http.post("/api/products", """
                {"sku":"%s","name":"Spoon","price":2.345,"quantityOnHand":0}""".formatted(sku()));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.raw()).contains("\"price\":2.34,");
        assertThat(created.body().get("description").isNull()).isTrue();
        assertThat(created.body().get("category").isNull()).isTrue();
    }

    @Test
    void aSecondProductWithTheSameSkuIs409() {
        String sku = sku();
        http.createProduct(sku, 1);
        Reply duplicate = http.post("/api/products", """
                {"sku":"%s","name":"Other","price":1,"quantityOnHand":1}""".formatted(sku));
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.contentType()).startsWith("application/problem+json");
        assertThat(duplicate.code()).isEqualTo("SKU_ALREADY_EXISTS");
    }

    @Test
    void ofConcurrentCreatesWithOneSkuExactlyOneSucceeds() throws Exception {
        String sku = sku();
        int racers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                replies.add(pool.submit(() -> {
                    start.await();
                    return http.post("/api/products", """
                            {"sku":"%s","name":"Racer","price":1,"quantityOnHand":1}""".formatted(sku));
                }));
            }
            start.countDown();
            int created = 0;
            int conflicts = 0;
            for (Future<Reply> reply : replies) {
                Reply answer = reply.get();
                if (answer.status() == 201) {
                    created++;
                } else if (answer.status() == 409 && "SKU_ALREADY_EXISTS".equals(answer.code())) {
                    conflicts++;
                }
            }
            assertThat(created).isEqualTo(1);
            assertThat(conflicts).isEqualTo(racers - 1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aProductAddedAgainWithItsIdempotencyKeyIsAddedOnce_andEveryCopyIsAnsweredWithIt() throws Exception {
        String sku = sku();
        String key = UUID.randomUUID().toString();
        String body = """
                {"sku":"%s","name":"Kettle","price":19.9,"quantityOnHand":7}""".formatted(sku);
        int copies = 6;
        List<Reply> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(copies)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Reply>> sent = new ArrayList<>();
            for (int i = 0; i < copies; i++) {
                sent.add(pool.submit(() -> {
                    start.await();
                    return http.post("/api/products", key, body);
                }));
            }
            start.countDown();
            for (Future<Reply> reply : sent) {
                replies.add(reply.get());
            }
        }

        assertThat(replies).extracting(Reply::status).containsOnly(201);
        assertThat(replies)
                .extracting(Reply::location)
                .containsOnly(replies.getFirst().location());
        assertThat(replies).filteredOn(Reply::replayed).hasSize(copies - 1);
        Reply reused = http.post("/api/products", key, """
                {"sku":"%s","name":"Kettle","price":19.9,"quantityOnHand":7}""".formatted(sku()));
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        Reply malformed = http.post("/api/products", "two words", """
                {"sku":"%s","name":"Kettle","price":19.9,"quantityOnHand":7}""".formatted(sku()));
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.code()).isEqualTo("INVALID_IDEMPOTENCY_KEY");
    }

    @Test
    void invalidNewProductsAre400ListingTheFields() {
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":"Free","price":0,"quantityOnHand":1}""".formatted(sku()), "price");
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":"Debt","price":-5,"quantityOnHand":1}""".formatted(sku()), "price");
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":"Negative","price":1,"quantityOnHand":-1}""".formatted(sku()), "quantityOnHand");
        assertValidationFailed("/api/products", """
                {"name":"No SKU","price":1,"quantityOnHand":1}""", "sku");
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":" ","price":1,"quantityOnHand":1}""".formatted(sku()), "name");
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":"No stock given","price":1}""".formatted(sku()), "quantityOnHand");
        assertValidationFailed("/api/products", """
                {"sku":"%s","name":"No price","quantityOnHand":1}""".formatted(sku()), "price");
    }

    @Test
    void malformedJsonIs400() {
        Reply reply = http.post("/api/products", "{\"sku\": ");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("MALFORMED_REQUEST");

        Reply wrongType = http.post("/api/products", """
                {"sku":"%s","name":"N","price":"cheap","quantityOnHand":1}""".formatted(sku()));
        assertThat(wrongType.status()).isEqualTo(400);
    }

    @Test
    void anUnknownProductIs404AndABadIdIs400() {
        Reply unknown = http.get("/api/products/" + UUID.randomUUID());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("PRODUCT_NOT_FOUND");

        Reply badId = http.get("/api/products/not-a-uuid");
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.code()).isEqualTo("INVALID_PARAMETER");
    }

    @Test
    void listingHonoursTheLimitAndRejectsOneOutside1To100() {
        http.createProduct(sku(), 1);
        http.createProduct(sku(), 1);

        Reply two = http.get("/api/products?limit=2");
        assertThat(two.status()).isEqualTo(200);
        assertThat(two.body().isArray()).isTrue();
        assertThat(two.body().size()).isEqualTo(2);
        assertThat(two.body().get(0).has("availableQuantity")).isTrue();

        Reply byDefault = http.get("/api/products");
        assertThat(byDefault.status()).isEqualTo(200);
        assertThat(byDefault.body().size()).isBetween(2, 20);

        for (String limit : List.of("0", "101", "-1")) {
            Reply refused = http.get("/api/products?limit=" + limit);
            assertThat(refused.status()).as("limit=" + limit).isEqualTo(400);
            assertThat(refused.code()).isEqualTo("VALIDATION_FAILED");
        }
        Reply notANumber = http.get("/api/products?limit=many");
        assertThat(notANumber.status()).isEqualTo(400);
        assertThat(notANumber.code()).isEqualTo("INVALID_PARAMETER");
    }

    @Test
    void reservingHoldsUnitsAndTheSameReservationAgainChangesNothing() {
        String id = http.createProduct(sku(), 10);
        assertThat(http.get("/api/products/" + id).intField("availableQuantity"))
                .isEqualTo(10);
        String order = UUID.randomUUID().toString();

        Reply reserved = reserve(id, 4, order);
        assertThat(reserved.status()).isEqualTo(200);
        assertThat(reserved.intField("quantityOnHand")).isEqualTo(10);
        assertThat(reserved.intField("quantityReserved")).isEqualTo(4);
        assertThat(reserved.intField("availableQuantity")).isEqualTo(6);

        Reply again = reserve(id, 4, order);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.intField("quantityReserved")).isEqualTo(4);
        assertThat(again.body().get("updatedAt")).isEqualTo(reserved.body().get("updatedAt"));

        // The answer is the committed row, whole; the cached view was dropped when the reservation committed.
        assertThat(http.get("/api/products/" + id).body()).isEqualTo(reserved.body());

        Reply otherQuantity = reserve(id, 5, order);
        assertThat(otherQuantity.status()).isEqualTo(409);
        assertThat(otherQuantity.code()).isEqualTo("RESERVATION_EXISTS");
    }

    @Test
    void reservingMoreThanIsAvailableIs409WithAvailableAndRequested() {
        String id = http.createProduct(sku(), 5);
        reserve(id, 3, UUID.randomUUID().toString());

        Reply refused = reserve(id, 3, UUID.randomUUID().toString());
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(refused.intField("available")).isEqualTo(2);
        assertThat(refused.intField("requested")).isEqualTo(3);
        assertThat(http.get("/api/products/" + id).intField("quantityReserved")).isEqualTo(3);
    }

    @Test
    void invalidStockRequestsAre400AndUnknownProducts404() {
        String id = http.createProduct(sku(), 5);
        String order = UUID.randomUUID().toString();
        assertValidationFailed("/api/products/" + id + "/stock/reserve", """
                {"quantity":0,"orderId":"%s"}""".formatted(order), "quantity");
        assertValidationFailed("/api/products/" + id + "/stock/reserve", """
                {"quantity":1}""", "orderId");
        assertValidationFailed("/api/products/" + id + "/stock/release", """
                {"quantity":-2,"orderId":"%s","reason":"r"}""".formatted(order), "quantity");
        assertValidationFailed("/api/products/" + id + "/stock/release", """
                {"quantity":1,"orderId":"%s"}""".formatted(order), "reason");
        assertValidationFailed("/api/products/" + id + "/stock/replenish", """
                {"quantity":0,"reason":"r"}""", "quantity");

        Reply badOrderId = http.post("/api/products/" + id + "/stock/reserve", """
                {"quantity":1,"orderId":"nope"}""");
        assertThat(badOrderId.status()).isEqualTo(400);

        Reply badProductId = reserve("nope", 1, order);
        assertThat(badProductId.status()).isEqualTo(400);
        assertThat(badProductId.code()).isEqualTo("INVALID_PARAMETER");

        String unknown = UUID.randomUUID().toString();
        assertThat(reserve(unknown, 1, order).code()).isEqualTo("PRODUCT_NOT_FOUND");
        assertThat(release(unknown, 1, order).code()).isEqualTo("PRODUCT_NOT_FOUND");
        Reply replenishUnknown = replenish(unknown, 1);
        assertThat(replenishUnknown.status()).isEqualTo(404);
        assertThat(replenishUnknown.code()).isEqualTo("PRODUCT_NOT_FOUND");
    }

    @Test
    void releasingGivesBackAtMostWhatTheOrderHolds() {
        String id = http.createProduct(sku(), 10);
        String order = UUID.randomUUID().toString();
        reserve(id, 5, order);

        Reply partly = release(id, 2, order);
        assertThat(partly.status()).isEqualTo(200);
        assertThat(partly.intField("quantityReserved")).isEqualTo(3);
        assertThat(partly.intField("availableQuantity")).isEqualTo(7);
        assertThat(http.get("/api/products/" + id).body()).isEqualTo(partly.body());

        Reply tooMuch = release(id, 4, order);
        assertThat(tooMuch.status()).isEqualTo(409);
        assertThat(tooMuch.code()).isEqualTo("RESERVATION_TOO_SMALL");

        Reply notHeld = release(id, 1, UUID.randomUUID().toString());
        assertThat(notHeld.status()).isEqualTo(409);
        assertThat(notHeld.code()).isEqualTo("NO_RESERVATION");

        Reply rest = release(id, 3, order);
        assertThat(rest.intField("quantityReserved")).isZero();
        assertThat(release(id, 1, order).code()).isEqualTo("NO_RESERVATION");

        Reply audit = http.get("/api/admin/audit/stock");
        JsonNode audited = product(audit.body(), id);
        assertThat(audited.get("quantityHeld").asLong()).isZero();
        assertThat(audited.get("consistent").asBoolean()).isTrue();
    }

    @Test
    void replenishingAddsToTheStockOnHand() {
        String id = http.createProduct(sku(), 1);
        reserve(id, 1, UUID.randomUUID().toString());
        Reply replenished = replenish(id, 9);
        assertThat(replenished.status()).isEqualTo(200);
        assertThat(replenished.intField("quantityOnHand")).isEqualTo(10);
        assertThat(replenished.intField("availableQuantity")).isEqualTo(9);
        assertThat(http.get("/api/products/" + id).body()).isEqualTo(replenished.body());

        Reply tooMany = replenish(id, Integer.MAX_VALUE);
        assertThat(tooMany.status()).isEqualTo(422);
        assertThat(tooMany.code()).isEqualTo("STOCK_LIMIT_EXCEEDED");
    }

    @Test
    void theStockAuditShowsEveryProductsHeldUnitsAndTheReservationsBehindThem() {
        String id = http.createProduct(sku(), 10);
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        reserve(id, 2, first);
        reserve(id, 3, second);

        Reply audit = http.get("/api/admin/audit/stock");
        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.body().get("consistent").asBoolean()).isTrue();
        JsonNode product = product(audit.body(), id);
        assertThat(product.get("quantityOnHand").asInt()).isEqualTo(10);
        assertThat(product.get("quantityReserved").asInt()).isEqualTo(5);
        assertThat(product.get("quantityHeld").asLong()).isEqualTo(5);
        assertThat(product.get("consistent").asBoolean()).isTrue();
        for (String order : List.of(first, second)) {
            JsonNode page = http.get("/api/admin/audit/stock/reservations?limit=1&after="
                            + new UUID(UUID.fromString(order).getMostSignificantBits(), 0))
                    .body();
            assertThat(page.get("reservations").get(0).get("orderId").asString())
                    .isEqualTo(order);
            assertThat(page.get("reservations").get(0).get("productId").asString())
                    .isEqualTo(id);
        }
    }

    @Test
    void theOpenApiDescriptionIsServed() {
        Reply docs = http.get("/v3/api-docs");
        assertThat(docs.status()).isEqualTo(200);
        assertThat(docs.body().get("paths").has("/api/products/{productId}/stock/reserve"))
                .isTrue();
        assertThat(docs.body().get("paths").has("/api/admin/audit/stock")).isTrue();
    }

    private void assertValidationFailed(String path, String body, String field) {
        Reply reply = http.post(path, body);
        assertThat(reply.status()).as(body).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(reply.raw()).contains("\"field\":\"" + field + "\"");
    }

    private Reply reserve(String productId, int quantity, String orderId) {
        return http.post("/api/products/" + productId + "/stock/reserve", """
                {"quantity":%d,"orderId":"%s"}""".formatted(quantity, orderId));
    }

    private Reply release(String productId, int quantity, String orderId) {
        return http.post("/api/products/" + productId + "/stock/release", """
                {"quantity":%d,"orderId":"%s","reason":"test"}""".formatted(quantity, orderId));
    }

    private Reply replenish(String productId, int quantity) {
        return http.post("/api/products/" + productId + "/stock/replenish", """
                {"quantity":%d,"reason":"delivery"}""".formatted(quantity));
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
