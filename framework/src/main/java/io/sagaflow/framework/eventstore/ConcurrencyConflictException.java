package io.sagaflow.framework.eventstore;

/**
 * An append lost the optimistic concurrency check: the stream was not at the expected version, because another
 * writer appended first. Nothing of the losing append was written. Reload the stream and decide again.
 */
public final class ConcurrencyConflictException extends RuntimeException {

    private final String streamId;
    private final long expectedVersion;
    private final long actualVersion;

    public ConcurrencyConflictException(String streamId, long expectedVersion, long actualVersion) {
        super("stream %s: expected version %d, actual version %d".formatted(streamId, expectedVersion, actualVersion));
        this.streamId = streamId;
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    public String streamId() {
        return streamId;
    }

    public long expectedVersion() {
        return expectedVersion;
    }

    /** The version the stream had when the conflict was detected (it may have moved on since). */
    public long actualVersion() {
        return actualVersion;
    }
}
