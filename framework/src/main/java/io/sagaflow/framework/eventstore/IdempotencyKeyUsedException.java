package io.sagaflow.framework.eventstore;

/**
 * An append carried an {@link IdempotencyKey} that an earlier append already used. Nothing of the append was written;
 * {@link #streamId()} names the stream the earlier one appended to, which holds what its request made.
 */
public final class IdempotencyKeyUsedException extends RuntimeException {

    private final IdempotencyKey key;
    private final String streamId;
    private final String fingerprint;

    public IdempotencyKeyUsedException(IdempotencyKey key, String streamId, String fingerprint) {
        super("idempotency key %s of %s was used by the append to %s".formatted(key.value(), key.scope(), streamId));
        this.key = key;
        this.streamId = streamId;
        this.fingerprint = fingerprint;
    }

    /** The key as the refused append carried it. */
    public IdempotencyKey key() {
        return key;
    }

    /** The stream the first append with the key went to. */
    public String streamId() {
        return streamId;
    }

    /** Whether the first request with the key was this same request (their fingerprints are equal). */
    public boolean sameRequest() {
        return fingerprint.equals(key.fingerprint());
    }
}
