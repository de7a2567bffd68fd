package io.sagaflow.order.catalog.application;

import io.sagaflow.account.contracts.CustomerRegistered;
import io.sagaflow.account.contracts.CustomerStatusChanged;
import io.sagaflow.framework.consumer.EventHandler;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Consumer {@code order.catalog}: copies new products and customers and customers' status changes, exactly once per
 * event, so an order can be checked without calling another service.
 */
@Component
public class CatalogSubscription implements EventHandler {

    /** The consumer's name. */
    public static final String CONSUMER = "order.catalog";

    /** The events it handles; it never sees the others. */
    public static final Set<Class<?>> EVENT_TYPES =
            Set.of(ProductCreated.class, CustomerRegistered.class, CustomerStatusChanged.class);

    private final CatalogCopies copies;

    public CatalogSubscription(CatalogCopies copies) {
        this.copies = copies;
    }

    @Override
    public void handle(EventEnvelope<Object> event) {
        switch (event.payload()) {
            case ProductCreated product ->
                copies.productCreated(product.productId(), product.sku(), product.name(), product.price());
            case CustomerRegistered customer -> copies.customerStatus(customer.customerId(), "ACTIVE");
            case CustomerStatusChanged change -> copies.customerStatus(change.customerId(), change.status());
            default -> {
                // other services' events are none of the catalog's business
            }
        }
    }
}
