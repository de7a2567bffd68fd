package io.sagaflow.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small JSON-over-HTTP client for the system tests. */
final class Api {

    static final JsonMapper JSON = new JsonMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A response: status and parsed body (null when empty). */
    record Response(int status, JsonNode body) {
        JsonNode ok() {
            if (status / 100 != 2) {
                throw new AssertionError("expected 2xx, got " + status + ": " + body);
            }
            return body;
        }
    }

    private Api() {}

    /** The body of {@code POST /api/products} for a new product with a unique SKU. */
    static Map<String, Object> newProduct(int quantity, String price) {
        return Map.of(
                "sku",
                "SKU-" + UUID.randomUUID(),
                "name",
                "Widget",
                "price",
                new BigDecimal(price),
                "quantityOnHand",
                quantity);
    }

    static Response get(String url) {
        return send("GET", url, null);
    }

    static Response post(String url, Object body) {
        return send("POST", url, body);
    }

    static Response patch(String url, Object body) {
        return send("PATCH", url, body);
    }

    /** {@code POST} with an {@code Idempotency-Key}: a request the gateway may send again to another replica. */
    static Response postKeyed(String url, Object body, String key) {
        return send("POST", url, body, Map.of("Idempotency-Key", key));
    }

    static Response send(String method, String url, Object body) {
        return send(method, url, body, Map.of());
    }

    static Response send(String method, String url, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            return new Response(response.statusCode(), text == null || text.isBlank() ? null : JSON.readTree(text));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
