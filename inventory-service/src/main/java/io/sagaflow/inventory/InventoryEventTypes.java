package io.sagaflow.inventory;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.inventory.product.domain.ProductStockReleased;
import io.sagaflow.inventory.product.domain.ProductStockReplenished;
import io.sagaflow.inventory.product.domain.ProductStockReserved;
import io.sagaflow.order.contracts.OrderContracts;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every event type the service writes or reads under its stable name: its private stock events (never published),
 * its published contracts, and the order contracts it consumes.
 */
@Configuration(proxyBeanMethods = false)
public class InventoryEventTypes {

    @Bean
    EventTypeRegistry eventTypeRegistry() {
        EventTypeRegistry.Builder types = EventTypeRegistry.builder()
                .register("ProductStockReserved", ProductStockReserved.class)
                .register("ProductStockReleased", ProductStockReleased.class)
                .register("ProductStockReplenished", ProductStockReplenished.class);
        InventoryContracts.register(types);
        OrderContracts.register(types);
        return types.build();
    }
}
