package io.sagaflow.framework.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationFilter;
import io.sagaflow.framework.web.ChosenReturnValueHandlers;
import io.sagaflow.framework.web.ConnectionBuffers;
import io.sagaflow.framework.web.CorrelationFilter;
import io.sagaflow.framework.web.HandlerLimit;
import io.sagaflow.framework.web.IdempotentRequests;
import io.sagaflow.framework.web.InFlightLimitFilter;
import io.sagaflow.framework.web.JsonOnlyConverters;
import io.sagaflow.framework.web.LongPoll;
import io.sagaflow.framework.web.ProblemDetailsHandler;
import io.sagaflow.framework.web.WarmUp;
import io.sagaflow.framework.web.WholeJsonAnswers;
import io.sagaflow.tomcat.ProblemErrorReports;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * Problem details, correlation ids, a bound on requests in flight, idempotency keys, JSON-only message converters, JSON
 * answers sent whole, return value handlers chosen once, lean connection buffers and a warm-up before readiness for
 * every servlet-based service.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class SagaflowWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(ProblemDetailsHandler.class)
    ProblemDetailsHandler problemDetailsHandler() {
        return new ProblemDetailsHandler();
    }

    /**
     * Bounds the requests in flight (ADR 0023, 0041): {@code sagaflow.web.max-in-flight}, 256 by default, 0 for none,
     * counting those that wait for a Tomcat handler (ADR 0105).
     */
    @Bean
    FilterRegistrationBean<InFlightLimitFilter> inFlightLimitFilter(
            @Value("${sagaflow.web.max-in-flight:256}") int maxInFlight,
            ObjectProvider<MeterRegistry> meters,
            ObjectProvider<HandlerLimit> handlerLimit) {
        HandlerLimit handlers = handlerLimit.getIfAvailable();
        FilterRegistrationBean<InFlightLimitFilter> registration = new FilterRegistrationBean<>(new InFlightLimitFilter(
                maxInFlight,
                meters.getIfAvailable(SimpleMeterRegistry::new),
                handlers == null ? () -> 0 : handlers::queued));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /** The {@code Idempotency-Key} header of the requests that create something (ADR 0070). */
    @Bean
    IdempotentRequests idempotentRequests(ObjectProvider<MeterRegistry> meters) {
        return new IdempotentRequests(meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    /** Tags server timings {@code wait=yes|no}, so a long poll's wait is not read as latency (ADR 0025). */
    @Bean
    ObservationFilter waitedReadsTag() {
        return LongPoll.tagWaitedReads();
    }

    /** A handler method's return value handler chosen once per method and class of value (ADR 0107). */
    @Bean
    static BeanPostProcessor chosenReturnValueHandlers() {
        return ChosenReturnValueHandlers.installer();
    }

    /** JSON, text, bytes and resources only: no converter of a format the API does not speak (ADR 0066). */
    @Bean
    JsonOnlyConverters jsonOnlyConverters() {
        return new JsonOnlyConverters();
    }

    /** A JSON answer sent with its length in one write, not chunked (ADR 0071). */
    @Bean
    WholeJsonAnswers wholeJsonAnswers() {
        return new WholeJsonAnswers();
    }

    /**
     * The replica's requests to itself before it says it is ready (ADR 0078): {@code sagaflow.web.warm-up.calls}
     * (method, path, body; none by default), each {@code sagaflow.web.warm-up.rounds} times (10).
     */
    @Bean
    WarmUp warmUp(
            ApplicationContext context,
            Environment environment,
            @Value("${sagaflow.web.warm-up.rounds:10}") int rounds,
            @Value("${sagaflow.web.warm-up.timeout:10s}") Duration timeout) {
        List<WarmUp.Call> calls = Binder.get(environment)
                .bind("sagaflow.web.warm-up.calls", Bindable.listOf(WarmUp.Call.class))
                .orElse(List.of());
        return new WarmUp(context, calls, rounds, timeout);
    }

    @Bean
    FilterRegistrationBean<CorrelationFilter> correlationFilter() {
        FilterRegistrationBean<CorrelationFilter> registration = new FilterRegistrationBean<>(new CorrelationFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** Each connection's socket buffers (ADR 0041): {@code sagaflow.web.connection-buffer}, 2 KB by default. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.apache.catalina.connector.Connector",
                "org.springframework.boot.tomcat.TomcatConnectorCustomizer"
            })
    static class TomcatBuffers {

        @Bean
        ConnectionBuffers connectionBuffers(@Value("${sagaflow.web.connection-buffer:2KB}") DataSize size) {
            return new ConnectionBuffers(size);
        }

        /**
         * At most {@code sagaflow.web.max-handlers} requests worked on at once by Tomcat (ADR 0105), 128 by default,
         * the others waiting with nothing but their socket; 0 for no bound.
         */
        @Bean
        HandlerLimit handlerLimit(
                @Value("${sagaflow.web.max-handlers:128}") int maxHandlers, ObjectProvider<MeterRegistry> meters) {
            return new HandlerLimit(maxHandlers, meters.getIfAvailable(SimpleMeterRegistry::new));
        }

        /** What Tomcat refuses before Spring sees it, answered as a problem too, not as Tomcat's HTML page. */
        @Bean
        TomcatContextCustomizer problemErrorReports() {
            return ProblemErrorReports::install;
        }
    }
}
