package io.sagaflow.order.catalog.application;

import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.contracts.CustomerStatusChanged;
import io.sagaflow.framework.consumer.EventSubscriber;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Consumer {@code order.catalog}: copies new products and customers and customers' status changes, exactly once per
 * event, so an order can be checked without calling another service.
 */
@Component
public class CatalogSubscription implements SmartLifecycle {

    private final EventSubscriber subscriber;
    private final CatalogCopies copies;
    private volatile Subscription subscription;

    public CatalogSubscription(EventSubscriber subscriber, CatalogCopies copies) {
        this.subscriber = subscriber;
        this.copies = copies;
    }

    @Override
    public void start() {
        subscription = subscriber.subscribe("order.catalog", event -> {
            switch (event.payload()) {
                case ProductCreated product ->
                    copies.productCreated(product.productId(), product.sku(), product.name(), product.price());
                case CustomerRegistered customer -> copies.customerStatus(customer.customerId(), "ACTIVE");
                case CustomerStatusChanged change -> copies.customerStatus(change.customerId(), change.status());
                default -> {
                    // other services' events are none of the catalog's business
                }
            }
        });
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
}
