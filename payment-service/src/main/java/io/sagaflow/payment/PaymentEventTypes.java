package io.sagaflow.payment;

import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.payments.domain.PaymentInitiated;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every event type the payment service writes or reads: its private {@code PaymentInitiated}, its published
 * contracts, and the order contracts whose {@code PaymentRequested} and {@code RefundRequested} it consumes.
 */
@Configuration(proxyBeanMethods = false)
public class PaymentEventTypes {

    @Bean
    EventTypeRegistry eventTypeRegistry() {
        EventTypeRegistry.Builder types =
                EventTypeRegistry.builder().register("PaymentInitiated", PaymentInitiated.class);
        PaymentContracts.register(types);
        OrderContracts.register(types);
        return types.build();
    }
}
