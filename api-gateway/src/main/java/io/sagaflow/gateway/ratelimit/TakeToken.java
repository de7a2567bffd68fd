package io.sagaflow.gateway.ratelimit;

import com.hazelcast.map.EntryProcessor;
import java.util.Map;

/**
 * Takes a token from one client's bucket where the bucket lives: Hazelcast runs it on the partition owner with the
 * entry locked, so concurrent requests through different gateway replicas never lose an update, and the caller waits
 * one round trip. A missing (expired) bucket counts as full. Backups re-run it asynchronously.
 *
 * @param capacity the bucket's capacity
 * @param refillPerSecond the bucket's refill rate
 */
public record TakeToken(long capacity, double refillPerSecond)
        implements EntryProcessor<String, TokenBucket, RateLimitDecision> {

    @Override
    public RateLimitDecision process(Map.Entry<String, TokenBucket> entry) {
        TokenBucket.Limit limit = new TokenBucket.Limit(capacity, refillPerSecond);
        long now = System.currentTimeMillis();
        TokenBucket bucket = entry.getValue() == null ? TokenBucket.full(limit, now) : entry.getValue();
        TokenBucket.Take take = bucket.take(limit, now);
        entry.setValue(take.bucket());
        return take.decision();
    }
}
