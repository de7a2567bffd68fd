package io.sagaflow.gateway.routing;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.observation.ObservationFilter;
import io.sagaflow.gateway.GatewayProperties;
import io.sagaflow.gateway.problem.ProblemWriter;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The pieces the configured routes use besides the gateway's own: the {@code RetryReads}, {@code RetryUnsentWrites}
 * and {@code RetryKeyedWrites} filters with the servlet filter that tells which writes never left the gateway, load
 * balancing over the replicas that are ready and can be reached, virtual threads for the circuit breakers'
 * time-limited calls, and the problems failed calls turn into.
 */
@Configuration(proxyBeanMethods = false)
@LoadBalancerClients(defaultConfiguration = ReachableReplicasConfiguration.class)
class RoutingConfiguration {

    @Bean
    UnreachableReplicas unreachableReplicas(GatewayProperties properties) {
        return new UnreachableReplicas(properties.unreachableReplicaPause(), Clock.systemUTC());
    }

    @Bean
    ReadyReplicas readyReplicas(GatewayProperties properties, DiscoveryClient discovery) {
        GatewayProperties.Readiness readiness = properties.readiness();
        return new ReadyReplicas(
                discovery,
                properties.services(),
                () -> HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(readiness.timeout())
                        .executor(Executors.newVirtualThreadPerTaskExecutor())
                        .build(),
                readiness.interval(),
                readiness.timeout(),
                readiness.failureThreshold(),
                readiness.idleAfter());
    }

    /** Tags the gateway's timings {@code wait=yes|no}, so a long poll's wait is not read as latency. */
    @Bean
    ObservationFilter waitedReadsTag() {
        return WaitedReads.tag();
    }

    @Bean
    TriedReplicas triedReplicas() {
        return new TriedReplicas();
    }

    @Bean
    FilterRegistrationBean<BodyReadFilter> bodyReadFilter() {
        return new FilterRegistrationBean<>(new BodyReadFilter());
    }

    @Bean
    SagaflowFilterFunctions.FilterSupplier sagaflowFilterFunctions() {
        return new SagaflowFilterFunctions.FilterSupplier();
    }

    /**
     * A time limiter runs the call on another thread and waits for it at most the route's timeout. The factory's
     * default is a cached pool of platform threads; a virtual thread per call costs less and cannot run out. (Not an
     * {@code Executor} bean, which would replace Spring Boot's application task executor.)
     */
    @Bean(destroyMethod = "close")
    UpstreamCalls upstreamCalls() {
        return new UpstreamCalls(Executors.newVirtualThreadPerTaskExecutor());
    }

    @Bean
    Customizer<Resilience4JCircuitBreakerFactory> circuitBreakersOnVirtualThreads(UpstreamCalls upstreamCalls) {
        return factory -> {
            factory.configureExecutorService(upstreamCalls.executor());
            factory.configureGroupExecutorService(group -> upstreamCalls.executor());
        };
    }

    /** The executor of the time-limited calls to the services. */
    record UpstreamCalls(ExecutorService executor) implements AutoCloseable {

        @Override
        public void close() {
            executor.close();
        }
    }

    @Bean
    OpenCircuits openCircuits(CircuitBreakerRegistry circuitBreakerRegistry) {
        return new OpenCircuits(circuitBreakerRegistry, Clock.systemUTC());
    }

    @Bean
    UpstreamErrorResolver upstreamErrorResolver(ProblemWriter problems, OpenCircuits openCircuits) {
        return new UpstreamErrorResolver(problems, openCircuits);
    }
}
