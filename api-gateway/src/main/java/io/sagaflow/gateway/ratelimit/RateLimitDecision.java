package io.sagaflow.gateway.ratelimit;

/**
 * The answer for one request: whether it may pass, and what the {@code RateLimit-*} and {@code Retry-After} headers
 * tell the client.
 *
 * @param allowed whether the request took a token
 * @param limit the bucket's capacity ({@code RateLimit-Limit})
 * @param remaining whole tokens left after this request ({@code RateLimit-Remaining})
 * @param resetSeconds seconds until the bucket is full again ({@code RateLimit-Reset})
 * @param retryAfterSeconds seconds until the next token, for a rejected request ({@code Retry-After}); else 0
 */
public record RateLimitDecision(
        boolean allowed, long limit, long remaining, long resetSeconds, long retryAfterSeconds) {}
