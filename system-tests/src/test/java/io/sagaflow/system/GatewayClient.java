package io.sagaflow.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One client of one API gateway: every request carries the client's bearer token (if it has one) and API key (the
 * key of its rate-limit bucket), plus whatever headers a call adds.
 */
final class GatewayClient {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String url;
    private final String token;
    private final String apiKey;

    GatewayClient(ServiceProcess gateway, String token, String apiKey) {
        this(gateway.url(), token, apiKey);
    }

    private GatewayClient(String url, String token, String apiKey) {
        this.url = url;
        this.token = token;
        this.apiKey = apiKey;
    }

    /** The same client with another token, or none if {@code null}. */
    GatewayClient withToken(String other) {
        return new GatewayClient(url, other, apiKey);
    }

    /** The same client with another API key, i.e. another rate-limit bucket. */
    GatewayClient withApiKey(String other) {
        return new GatewayClient(url, token, other);
    }

    /** An answer: status, headers, body and how long it took. */
    record Answer(int status, HttpHeaders headers, String body, Duration took) {

        Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        JsonNode json() {
            return body == null || body.isBlank() ? null : Api.JSON.readTree(body);
        }

        JsonNode ok() {
            if (status / 100 != 2) {
                throw new AssertionError("expected 2xx, got " + this);
            }
            return json();
        }

        @Override
        public String toString() {
            return status + " after " + took.toMillis() + " ms: " + body;
        }
    }

    Answer get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    Answer post(String path, Object body, String... headers) {
        return send("POST", path, body, headers);
    }

    Answer send(String method, String path, Object body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(Api.JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (apiKey != null) {
            request.header("X-API-Key", apiKey);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(
                    response.statusCode(),
                    response.headers(),
                    response.body(),
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + url + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
