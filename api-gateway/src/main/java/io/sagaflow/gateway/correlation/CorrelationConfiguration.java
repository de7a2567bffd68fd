package io.sagaflow.gateway.correlation;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Registers the {@link CorrelationFilter} first, so every answer (a 401 or 429 too) carries the correlation id. */
@Configuration(proxyBeanMethods = false)
class CorrelationConfiguration {

    @Bean
    FilterRegistrationBean<CorrelationFilter> correlationFilter() {
        var registration = new FilterRegistrationBean<>(new CorrelationFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
