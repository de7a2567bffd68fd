package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import org.springframework.context.SmartLifecycle;

/**
 * Subscribes a consumer when the application starts and cancels it when it stops. Declare one as a bean per consumer:
 * {@code new SubscriptionLifecycle(subscriber, "inventory.order-saga", handler, 0)}.
 */
public class SubscriptionLifecycle implements SmartLifecycle {

    private final EventSubscriber subscriber;
    private final String consumer;
    private final EventHandler handler;
    private final int phase;
    private volatile Subscription subscription;

    /**
     * @param consumer the consumer's name: its processed events and checkpoints are kept under it
     * @param phase when it starts relative to other lifecycles (higher starts later and stops earlier)
     */
    public SubscriptionLifecycle(EventSubscriber subscriber, String consumer, EventHandler handler, int phase) {
        this.subscriber = subscriber;
        this.consumer = consumer;
        this.handler = handler;
        this.phase = phase;
    }

    @Override
    public void start() {
        subscription = subscriber.subscribe(consumer, handler);
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
