package io.sagaflow.payment.ordersaga.adapter.topic;

import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.payment.ordersaga.application.OrderSagaParticipant;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Subscribes the {@link OrderSagaParticipant} to the shared topic once the application context is up, and cancels
 * the subscription first thing on shutdown, before the database and Hazelcast go away.
 */
@Component
class OrderSagaSubscription implements SmartLifecycle {

    private final EventSubscriber subscriber;
    private final OrderSagaParticipant participant;
    private Subscription subscription;

    OrderSagaSubscription(EventSubscriber subscriber, OrderSagaParticipant participant) {
        this.subscriber = subscriber;
        this.participant = participant;
    }

    @Override
    public synchronized void start() {
        if (subscription == null) {
            subscription =
                    subscriber.subscribe(OrderSagaParticipant.CONSUMER, OrderSagaParticipant.EVENT_TYPES, participant);
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
}
