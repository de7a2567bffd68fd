package io.sagaflow.gateway.ratelimit;

import com.hazelcast.map.IMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one token from a client's shared bucket. A request waits for one cluster round trip, and never longer than
 * the configured timeout: if the cluster does not answer in time the request passes unlimited (and is counted), so a
 * troubled cluster degrades rate limiting, not the API.
 */
public class RateLimiter {

    private static final Logger log = LoggerFactory.getLogger(RateLimiter.class);

    private final IMap<String, TokenBucket> buckets;
    private final TakeToken takeToken;
    private final Duration timeout;
    private final Counter allowed;
    private final Counter rejected;
    private final Counter unavailable;

    public RateLimiter(
            IMap<String, TokenBucket> buckets, TokenBucket.Limit limit, Duration timeout, MeterRegistry meters) {
        this.buckets = buckets;
        this.takeToken = new TakeToken(limit.capacity(), limit.refillPerSecond());
        this.timeout = timeout;
        this.allowed = outcome(meters, "allowed");
        this.rejected = outcome(meters, "rejected");
        this.unavailable = outcome(meters, "unavailable");
    }

    /** The decision for one request of {@code client}, or empty if the cluster did not answer in time. */
    public Optional<RateLimitDecision> take(String client) {
        try {
            RateLimitDecision decision = buckets.submitToKey(client, takeToken)
                    .toCompletableFuture()
                    .get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            (decision.allowed() ? allowed : rejected).increment();
            return Optional.of(decision);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unavailable.increment();
            return Optional.empty();
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
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
