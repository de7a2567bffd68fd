package io.sagaflow.framework.eventstore;

import java.util.Objects;

/**
 * The key a client gave a creating request ({@code Idempotency-Key}), carried by the append the request makes. The
 * store records it with the append's events, in their transaction, and refuses a second append with the same key
 * ({@link IdempotencyKeyUsedException}): so a request made again, say after its connection was lost, creates nothing
 * twice (ADR 0070).
 *
 * @param scope what the key is unique within, one per kind of request ("orders", "customers")
 * @param value the client's key
 * @param fingerprint a digest of the request, to tell a request made again from another request reusing its key
 */
public record IdempotencyKey(String scope, String value, String fingerprint) {

    public IdempotencyKey {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }
}
