package io.sagaflow.inventory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP/1.1 client of the running service for ITs; bodies are parsed as JSON trees. */
public final class InventoryHttp {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String base;

    public InventoryHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    public Reply post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** A POST with an {@code Idempotency-Key}. */
    public Reply post(String path, String idempotencyKey, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** Creates a product and returns its id, failing unless the service answers 201. */
    public String createProduct(String sku, int quantityOnHand) {
        Reply created = post("/api/products", """
                {"sku":"%s","name":"Product %s","price":9.99,"quantityOnHand":%d}""".formatted(sku, sku, quantityOnHand));
        if (created.status() != 201) {
            throw new IllegalStateException("product not created: " + created);
        }
        return created.body().get("productId").asString();
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            return new Reply(
                    response.statusCode(),
                    response.headers().firstValue("Location"),
                    response.headers().firstValue("Content-Type").orElse(""),
                    body == null || body.isBlank() ? JSON.nullNode() : JSON.readTree(body),
                    body,
                    response.headers().firstValue("Idempotent-Replayed").isPresent());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * An answer.
     *
     * @param status HTTP status
     * @param location the Location header, if any
     * @param contentType the Content-Type header
     * @param body the body as JSON
     * @param raw the body as text
     * @param replayed whether it answers a request made again with its idempotency key
     */
    public record Reply(
            int status, Optional<String> location, String contentType, JsonNode body, String raw, boolean replayed) {

        /** The problem's {@code code}, or null. */
        public String code() {
            JsonNode code = body.get("code");
            return code == null ? null : code.asString();
        }

        public int intField(String name) {
            return body.get(name).asInt();
        }

        @Override
        public String toString() {
            return status + " " + raw;
        }
    }
}
