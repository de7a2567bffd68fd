package io.sagaflow.payment;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.payments.domain.PaymentInitiated;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every event type the payment service writes or reads: its private {@code PaymentInitiated}, its published
 * contracts, the inventory's {@code StockReserved} on which it charges an order (ADR 0055), and the order contracts
 * whose {@code RefundRequested} (and, from orders placed before ADR 0055, {@code PaymentRequested}) it consumes.
 */
@Configuration(proxyBeanMethods = false)
public class PaymentEventTypes {

    @Bean
    EventTypeRegistry eventTypeRegistry() {
        EventTypeRegistry.Builder types =
                EventTypeRegistry.builder().register("PaymentInitiated", PaymentInitiated.class);
        PaymentContracts.register(types);
        OrderContracts.register(types);
        InventoryContracts.register(types);
        return types.build();
    }
}
