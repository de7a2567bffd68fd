package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import java.util.Set;
import org.springframework.context.SmartLifecycle;

/**
 * Subscribes a consumer when the application starts and cancels it when it stops. Declare one as a bean per consumer:
 * {@code new SubscriptionLifecycle(subscriber, "inventory.order-saga", Set.of(OrderPlaced.class), handler, 0)}.
 */
public class SubscriptionLifecycle implements SmartLifecycle {

    private final EventSubscriber subscriber;
    private final String consumer;
    private final Set<Class<?>> eventTypes;
    private final EventHandler handler;
    private final Deduplication deduplication;
    private final int phase;
    private volatile Subscription subscription;

    /**
     * @param consumer the consumer's name: its processed events and checkpoints are kept under it
     * @param eventTypes the payload classes it handles; it never sees any other event
     * @param phase when it starts relative to other lifecycles (higher starts later and stops earlier)
     */
    public SubscriptionLifecycle(
            EventSubscriber subscriber, String consumer, Set<Class<?>> eventTypes, EventHandler handler, int phase) {
        this(subscriber, consumer, eventTypes, Deduplication.RECORDED, handler, phase);
    }

    /** As the other constructor, deduplicating deliveries as {@code deduplication} says. */
    public SubscriptionLifecycle(
            EventSubscriber subscriber,
            String consumer,
            Set<Class<?>> eventTypes,
            Deduplication deduplication,
            EventHandler handler,
            int phase) {
        this.subscriber = subscriber;
        this.consumer = consumer;
        this.eventTypes = Set.copyOf(eventTypes);
        this.deduplication = deduplication;
        this.handler = handler;
        this.phase = phase;
    }

    @Override
    public void start() {
        subscription = subscriber.subscribe(consumer, eventTypes, deduplication, handler);
    }

    @Override
    public void stop() {
        Subscription current = subscription;
        if (current != null) {
            current.cancel();
            subscription = null;
        }
    }

    @Override
    public boolean isRunning() {
        return subscription != null;
    }

    @Override
    public int getPhase() {
        return phase;
    }
}
