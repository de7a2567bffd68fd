package io.sagaflow.framework.eventstore;

/** An event type name or record class that the {@link EventTypeRegistry} does not know. */
public final class UnknownEventTypeException extends RuntimeException {

    public UnknownEventTypeException(String message) {
        super(message);
    }
}
