package io.sagaflow.framework.eventstore;

/**
 * The version a writer expects a stream to have before its append: the optimistic concurrency check. Versions start
 * at 1; a stream that does not exist has version 0.
 */
public sealed interface ExpectedVersion {

    /** The stream must not exist yet. */
    static ExpectedVersion noStream() {
        return Exactly.NO_STREAM;
    }

    /** The stream must be at exactly {@code version} (0 meaning: it does not exist). */
    static ExpectedVersion exactly(long version) {
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, was " + version);
        }
        return version == 0 ? Exactly.NO_STREAM : new Exactly(version);
    }

    /** No check: append after whatever is there. Only for streams with a single writer by construction. */
    static ExpectedVersion any() {
        return Any.INSTANCE;
    }

    /** A check against one version. */
    record Exactly(long version) implements ExpectedVersion {
        static final Exactly NO_STREAM = new Exactly(0);
    }

    /** No check. */
    enum Any implements ExpectedVersion {
        INSTANCE
    }
}
