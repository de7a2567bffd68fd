package io.sagaflow.framework.autoconfigure;

import io.sagaflow.framework.web.CorrelationFilter;
import io.sagaflow.framework.web.ProblemDetailsHandler;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/** Problem details and correlation ids for every servlet-based service. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class SagaflowWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(ProblemDetailsHandler.class)
    ProblemDetailsHandler problemDetailsHandler() {
        return new ProblemDetailsHandler();
    }

    @Bean
    FilterRegistrationBean<CorrelationFilter> correlationFilter() {
        FilterRegistrationBean<CorrelationFilter> registration = new FilterRegistrationBean<>(new CorrelationFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
