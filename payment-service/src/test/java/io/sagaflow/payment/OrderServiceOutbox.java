package io.sagaflow.payment;

import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.order.contracts.OrderContracts;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * Stands in for the order service's outbox relay in tests: publishes order contract events to the real shared topic
 * as {@link EventMessage}s on stream {@code order-<orderId>}, exactly as the relay would; and for the inventory's,
 * whose {@code StockReserved} asks payment to charge (ADR 0055), on stream {@code reservation-<orderId>}.
 */
public final class OrderServiceOutbox {

    private final ReliableTopicEventBus bus;
    private final EventSerializer serializer;

    public OrderServiceOutbox(ReliableTopicEventBus bus, EventSerializer serializer) {
        this.bus = bus;
        this.serializer = serializer;
    }

    /** A message carrying {@code event} as version {@code version} of the order's stream, with a fresh event id. */
    public EventMessage message(UUID orderId, long version, Object event) {
        return message(OrderContracts.ORDER_STREAM + orderId, orderId, version, event);
    }

    /** A message carrying the inventory's {@code event} as version {@code version} of the order's reservation. */
    public EventMessage reservation(UUID orderId, long version, Object event) {
        return message(InventoryContracts.RESERVATION_STREAM + orderId, orderId, version, event);
    }

    private EventMessage message(String stream, UUID orderId, long version, Object event) {
        Instant now = Instant.now();
        return new EventMessage(
                UUID.randomUUID().toString(),
                serializer.typeOf(event).publisher(),
                stream,
                version,
                serializer.typeOf(event).name(),
                serializer.typeOf(event).currentVersion(),
                ChronoUnit.MICROS.between(Instant.EPOCH, now),
                "saga-" + orderId,
                null,
                null,
                null,
                serializer.serialize(event));
    }

    /** Publishes {@code messages} in order and returns once the shared cluster has stored them. */
    public void publish(EventMessage... messages) {
        bus.publish(List.of(messages));
    }
}
