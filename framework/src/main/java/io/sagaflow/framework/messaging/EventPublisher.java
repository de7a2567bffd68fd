package io.sagaflow.framework.messaging;

import java.util.List;

/**
 * Publishes event messages to the shared cluster. {@link #publish} returns only once every message is durably
 * accepted by the cluster (stored with its backup), and keeps the order of messages of one stream.
 */
@FunctionalInterface
public interface EventPublisher {

    /** Publishes {@code messages} in order; throws if any could not be published (the caller retries them all). */
    void publish(List<EventMessage> messages);
}
