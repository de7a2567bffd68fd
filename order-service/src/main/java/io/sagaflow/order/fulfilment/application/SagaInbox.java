package io.sagaflow.order.fulfilment.application;

import java.util.Map;
import java.util.UUID;

/** Where messages for sagas wait until the saga job handles them, partitioned by order id. */
public interface SagaInbox {

    /** Adds a message under {@code messageId}; adding the same id again has no further effect. */
    void add(String messageId, UUID orderId, SagaInboxEntry entry);

    /** Removes a handled message. */
    void remove(String messageId, UUID orderId);

    /** Removes handled messages, by id with their order's id, all at once rather than one after another. */
    void removeAll(Map<String, UUID> messages);

    /** How many messages wait on this member (those of the partitions it owns). */
    int backlog();
}
