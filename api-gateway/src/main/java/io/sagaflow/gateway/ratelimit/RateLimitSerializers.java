package io.sagaflow.gateway.ratelimit;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.List;

/**
 * Compact serializers of what crosses the gateway cluster per request: the entry processor, the bucket and the
 * decision. Explicit, because Hazelcast's reflective serializer for records costs more than the token bucket itself.
 */
final class RateLimitSerializers {

    private RateLimitSerializers() {}

    static List<CompactSerializer<?>> all() {
        return List.of(new TakeTokenSerializer(), new TokenBucketSerializer(), new DecisionSerializer());
    }

    static final class TakeTokenSerializer implements CompactSerializer<TakeToken> {

        @Override
        public TakeToken read(CompactReader reader) {
            return new TakeToken(reader.readInt64("capacity"), reader.readFloat64("refillPerSecond"));
        }

        @Override
        public void write(CompactWriter writer, TakeToken take) {
            writer.writeInt64("capacity", take.capacity());
            writer.writeFloat64("refillPerSecond", take.refillPerSecond());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.gateway.TakeToken";
        }

        @Override
        public Class<TakeToken> getCompactClass() {
            return TakeToken.class;
        }
    }

    static final class TokenBucketSerializer implements CompactSerializer<TokenBucket> {

        @Override
        public TokenBucket read(CompactReader reader) {
            return new TokenBucket(reader.readFloat64("tokens"), reader.readInt64("updatedAtMillis"));
        }

        @Override
        public void write(CompactWriter writer, TokenBucket bucket) {
            writer.writeFloat64("tokens", bucket.tokens());
            writer.writeInt64("updatedAtMillis", bucket.updatedAtMillis());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.gateway.TokenBucket";
        }

        @Override
        public Class<TokenBucket> getCompactClass() {
            return TokenBucket.class;
        }
    }

    static final class DecisionSerializer implements CompactSerializer<RateLimitDecision> {

        @Override
        public RateLimitDecision read(CompactReader reader) {
            return new RateLimitDecision(
                    reader.readBoolean("allowed"),
                    reader.readInt64("limit"),
                    reader.readInt64("remaining"),
                    reader.readInt64("resetSeconds"),
                    reader.readInt64("retryAfterSeconds"));
        }

        @Override
        public void write(CompactWriter writer, RateLimitDecision decision) {
            writer.writeBoolean("allowed", decision.allowed());
            writer.writeInt64("limit", decision.limit());
            writer.writeInt64("remaining", decision.remaining());
            writer.writeInt64("resetSeconds", decision.resetSeconds());
            writer.writeInt64("retryAfterSeconds", decision.retryAfterSeconds());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.gateway.RateLimitDecision";
        }

        @Override
        public Class<RateLimitDecision> getCompactClass() {
            return RateLimitDecision.class;
        }
    }
}
