package io.sagaflow.gateway.ratelimit;

import com.hazelcast.map.IMap;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one token from a client's shared bucket: one synchronous entry-processor call, so the request's (virtual)
 * thread waits for one cluster round trip and nothing else. ({@code submitToKey} would allow a per-call timeout, but
 * completes through another thread and cost three to four times the CPU here.)
 *
 * <p>A troubled cluster degrades rate limiting, not the API: a breaker around the cluster opens when half of the last
 * 20 calls failed or took longer than the configured timeout, and while it is open (5 s) requests pass unlimited
 * without asking; they are counted as {@code unavailable}. A single call waits at most the cluster's operation call
 * timeout ({@link GatewayClusterConfig}).
 */
public class RateLimiter {

    private static final Logger log = LoggerFactory.getLogger(RateLimiter.class);

    private final IMap<String, TokenBucket> buckets;
    private final TakeToken takeToken;
    private final CircuitBreaker cluster;
    private final Counter allowed;
    private final Counter rejected;
    private final Counter unavailable;

    public RateLimiter(
            IMap<String, TokenBucket> buckets, TokenBucket.Limit limit, Duration timeout, MeterRegistry meters) {
        this.buckets = buckets;
        this.takeToken = new TakeToken(limit.capacity(), limit.refillPerSecond());
        this.cluster = CircuitBreaker.of(
                "rate-limit-cluster",
                CircuitBreakerConfig.custom()
                        .slidingWindowSize(20)
                        .minimumNumberOfCalls(5)
                        .failureRateThreshold(50)
                        .slowCallDurationThreshold(timeout)
                        .slowCallRateThreshold(50)
                        .waitDurationInOpenState(Duration.ofSeconds(5))
                        .permittedNumberOfCallsInHalfOpenState(3)
                        .build());
        this.allowed = outcome(meters, "allowed");
        this.rejected = outcome(meters, "rejected");
        this.unavailable = outcome(meters, "unavailable");
    }

    /** The decision for one request of {@code client}, or empty if the cluster cannot answer now. */
    public Optional<RateLimitDecision> take(String client) {
        if (!cluster.tryAcquirePermission()) {
            unavailable.increment();
            return Optional.empty();
        }
        long started = System.nanoTime();
        try {
            RateLimitDecision decision = buckets.executeOnKey(client, takeToken);
            cluster.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            (decision.allowed() ? allowed : rejected).increment();
            return Optional.of(decision);
        } catch (RuntimeException e) {
            cluster.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, e);
            unavailable.increment();
            log.warn("rate limit not applied: the gateway cluster did not answer ({})", e.toString());
            return Optional.empty();
        }
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder("sagaflow.gateway.rate.limit")
                .description("Requests checked against the rate limit, by outcome")
                .tag("outcome", outcome)
                .register(meters);
    }
}
