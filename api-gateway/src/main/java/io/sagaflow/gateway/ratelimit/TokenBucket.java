package io.sagaflow.gateway.ratelimit;

/**
 * One client's token bucket: up to {@code capacity} tokens, refilled continuously at {@code refillPerSecond}; every
 * request takes one token or is rejected. Pure: the caller supplies the time.
 *
 * @param tokens tokens in the bucket at {@code updatedAtMillis}, fractions included
 * @param updatedAtMillis when the bucket was last changed, in epoch milliseconds
 */
public record TokenBucket(double tokens, long updatedAtMillis) {

    /**
     * A bucket's size and refill rate.
     *
     * @param capacity the burst a client may send at once, at least one
     * @param refillPerSecond tokens added per second, more than zero
     */
    public record Limit(long capacity, double refillPerSecond) {

        public Limit {
            if (capacity < 1 || !(refillPerSecond > 0)) {
                throw new IllegalArgumentException("a rate limit needs capacity >= 1 and refill-per-second > 0");
            }
        }

        /** How long an untouched bucket takes to fill from empty: after that, forgetting it changes nothing. */
        public long secondsToFill() {
            return (long) Math.ceil(capacity / refillPerSecond);
        }
    }

    /** A taken (or refused) token: the bucket afterwards and the decision for the request. */
    public record Take(TokenBucket bucket, RateLimitDecision decision) {}

    /** The bucket of a client not seen before (or not within the time to fill): full. */
    public static TokenBucket full(Limit limit, long nowMillis) {
        return new TokenBucket(limit.capacity(), nowMillis);
    }

    public Take take(Limit limit, long nowMillis) {
        // Another member's clock may be behind: time never runs backwards for a bucket.
        long now = Math.max(nowMillis, updatedAtMillis);
        double available =
                Math.min(limit.capacity(), tokens + (now - updatedAtMillis) * limit.refillPerSecond() / 1000.0);
        if (available >= 1) {
            double left = available - 1;
            return new Take(
                    new TokenBucket(left, now),
                    new RateLimitDecision(
                            true,
                            limit.capacity(),
                            (long) Math.floor(left),
                            secondsUntil(limit.capacity() - left, limit),
                            0));
        }
        return new Take(
                new TokenBucket(available, now),
                new RateLimitDecision(
                        false,
                        limit.capacity(),
                        0,
                        secondsUntil(limit.capacity() - available, limit),
                        Math.max(1, secondsUntil(1 - available, limit))));
    }

    private static long secondsUntil(double missingTokens, Limit limit) {
        // The small tolerance keeps floating-point dust from adding a whole second.
        return (long) Math.ceil(missingTokens / limit.refillPerSecond() - 1e-9);
    }
}
