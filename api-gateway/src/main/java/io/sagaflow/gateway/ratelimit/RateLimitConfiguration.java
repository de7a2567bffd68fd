package io.sagaflow.gateway.ratelimit;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.gateway.GatewayProperties;
import io.sagaflow.gateway.problem.ProblemWriter;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Rate limiting, when {@code sagaflow.gateway.rate-limit.enabled}: the embedded member of the gateway cluster, the
 * {@link RateLimiter} on its bucket map and the filter, which runs after the correlation filter and before Spring
 * Security.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("sagaflow.gateway.rate-limit.enabled")
class RateLimitConfiguration {

    static final int FILTER_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER - 10;

    @Bean(destroyMethod = "shutdown")
    HazelcastInstance gatewayHazelcast(GatewayProperties properties) {
        GatewayProperties.RateLimit rateLimit = properties.rateLimit();
        // A request waits for one operation; in a failure that is the call timeout, then the request passes.
        Duration callTimeout = rateLimit.timeout().multipliedBy(4).compareTo(Duration.ofSeconds(1)) > 0
                ? rateLimit.timeout().multipliedBy(4)
                : Duration.ofSeconds(1);
        return Hazelcast.newHazelcastInstance(GatewayClusterConfig.member(
                properties.hazelcast(), limit(rateLimit), rateLimit.maxClientsPerMember(), callTimeout));
    }

    @Bean
    RateLimiter rateLimiter(HazelcastInstance gatewayHazelcast, GatewayProperties properties, MeterRegistry meters) {
        GatewayProperties.RateLimit rateLimit = properties.rateLimit();
        return new RateLimiter(
                gatewayHazelcast.getMap(GatewayHazelcastNames.RATE_LIMIT_BUCKETS),
                limit(rateLimit),
                rateLimit.timeout(),
                meters);
    }

    @Bean
    FilterRegistrationBean<RateLimitFilter> rateLimitFilter(
            RateLimiter rateLimiter, ProblemWriter problems, GatewayProperties properties) {
        var registration = new FilterRegistrationBean<>(new RateLimitFilter(
                rateLimiter, problems, properties.rateLimit().apiKeyHeader()));
        registration.setOrder(FILTER_ORDER);
        return registration;
    }

    /** UP while this replica's member runs; the member count shows whether the replicas found each other. */
    @Bean
    HealthIndicator rateLimitClusterHealthIndicator(HazelcastInstance gatewayHazelcast) {
        return () -> gatewayHazelcast.getLifecycleService().isRunning()
                ? Health.up()
                        .withDetail("cluster", gatewayHazelcast.getConfig().getClusterName())
                        .withDetail(
                                "members",
                                gatewayHazelcast.getCluster().getMembers().size())
                        .build()
                : Health.down().build();
    }

    private static TokenBucket.Limit limit(GatewayProperties.RateLimit rateLimit) {
        return new TokenBucket.Limit(rateLimit.capacity(), rateLimit.refillPerSecond());
    }
}
