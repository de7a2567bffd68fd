package io.sagaflow.inventory.reservation.adapter.messaging;

import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.inventory.reservation.application.OrderStockReservations;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Release;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Request;
import io.sagaflow.inventory.reservation.application.OrderStockReservations.Reserve;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.StockReleaseRequested;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #CONSUMER}: hands {@link OrderPlaced} and {@link StockReleaseRequested} from the shared topic to
 * {@link OrderStockReservations}, a batch at a time, inside the idempotent consumer's transaction, so each event has
 * its effect once.
 * Subscribes once the context has started (last phase) and cancels first on shutdown.
 */
@Component
public class OrderSagaConsumer implements SmartLifecycle {

    /** The consumer name, the key of its processed events and shard checkpoints. */
    public static final String CONSUMER = "inventory.order-saga";

    /** The events it handles; it never sees the others. */
    public static final Set<Class<?>> EVENT_TYPES = Set.of(OrderPlaced.class, StockReleaseRequested.class);

    private static final Logger log = LoggerFactory.getLogger(OrderSagaConsumer.class);

    private final EventSubscriber subscriber;
    private final OrderStockReservations reservations;
    private Subscription subscription;

    public OrderSagaConsumer(EventSubscriber subscriber, OrderStockReservations reservations) {
        this.subscriber = subscriber;
        this.reservations = reservations;
    }

    @Override
    public synchronized void start() {
        if (subscription == null) {
            subscription = subscriber.subscribe(CONSUMER, EVENT_TYPES, new EventHandler() {
                @Override
                public void handle(EventEnvelope<Object> event) {
                    handleAll(List.of(event));
                }

                @Override
                public void handleAll(List<EventEnvelope<Object>> events) {
                    OrderSagaConsumer.this.handleAll(events);
                }
            });
        }
    }

    @Override
    public synchronized void stop() {
        if (subscription != null) {
            subscription.cancel();
            subscription = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return subscription != null;
    }

    /** Hands the requests among {@code events} to the reservations together, in their order. */
    void handleAll(List<EventEnvelope<Object>> events) {
        List<Request> requests = new ArrayList<>(events.size());
        for (EventEnvelope<Object> event : events) {
            switch (event.payload()) {
                case OrderPlaced placed when placed.orderId() == null -> ignored(event);
                case OrderPlaced placed -> requests.add(new Reserve(placed, EventMetadata.causedBy(event)));
                case StockReleaseRequested requested when requested.orderId() == null -> ignored(event);
                case StockReleaseRequested requested ->
                    requests.add(new Release(requested, EventMetadata.causedBy(event)));
                default -> {
                    // Not among EVENT_TYPES: not delivered.
                }
            }
        }
        reservations.handleAll(requests);
    }

    private static void ignored(EventEnvelope<Object> event) {
        log.warn("ignoring {} {} of stream {}: it names no order", event.type(), event.eventId(), event.streamId());
    }
}
