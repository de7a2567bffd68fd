package io.sagaflow.account;

import io.sagaflow.account.contracts.AccountContracts;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every event type the account service writes or reads: today only its own published contracts. */
@Configuration(proxyBeanMethods = false)
public class AccountEventTypes {

    @Bean
    EventTypeRegistry eventTypeRegistry() {
        return AccountContracts.register(EventTypeRegistry.builder()).build();
    }
}
