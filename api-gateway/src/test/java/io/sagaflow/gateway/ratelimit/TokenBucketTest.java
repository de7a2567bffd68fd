package io.sagaflow.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private static final TokenBucket.Limit FIVE_AT_TWO_PER_SECOND = new TokenBucket.Limit(5, 2);

    @Test
    void givenANewClient_whenItSendsABurst_thenCapacityRequestsPassAndTheNextIsRejected() {
        TokenBucket bucket = TokenBucket.full(FIVE_AT_TWO_PER_SECOND, 0);
        for (long remaining = 4; remaining >= 0; remaining--) {
            TokenBucket.Take take = bucket.take(FIVE_AT_TWO_PER_SECOND, 0);
            assertThat(take.decision().allowed()).isTrue();
            assertThat(take.decision().remaining()).isEqualTo(remaining);
            bucket = take.bucket();
        }

        RateLimitDecision rejected = bucket.take(FIVE_AT_TWO_PER_SECOND, 0).decision();

        assertThat(rejected)
                .as("the next token in 0.5 s and a full bucket in 2.5 s, both rounded up to seconds")
                .isEqualTo(new RateLimitDecision(false, 5, 0, 3, 1));
    }

    @Test
    void givenAnEmptyBucket_whenTimePasses_thenItRefillsAtItsRate_upToItsCapacity() {
        TokenBucket empty = new TokenBucket(0, 1_000);

        assertThat(empty.take(FIVE_AT_TWO_PER_SECOND, 1_400).decision().allowed())
                .as("0.8 tokens after 400 ms")
                .isFalse();
        assertThat(empty.take(FIVE_AT_TWO_PER_SECOND, 1_500).decision().allowed())
                .as("one token after 500 ms")
                .isTrue();
        TokenBucket.Take muchLater = empty.take(FIVE_AT_TWO_PER_SECOND, 3_600_000);
        assertThat(muchLater.decision().remaining()).isEqualTo(4);
        assertThat(muchLater.bucket().tokens()).isEqualTo(4.0);
    }

    @Test
    void givenARejection_thenRetryAfterIsTheWaitForTheNextToken() {
        TokenBucket.Limit slow = new TokenBucket.Limit(10, 0.1);
        TokenBucket almostOne = new TokenBucket(0.5, 0);

        RateLimitDecision rejected = almostOne.take(slow, 0).decision();

        assertThat(rejected.retryAfterSeconds()).isEqualTo(5);
        assertThat(rejected.resetSeconds()).isEqualTo(95);
    }

    @Test
    void givenAClockBehindTheBucket_thenTimeDoesNotRunBackwards() {
        TokenBucket bucket = new TokenBucket(1, 10_000);

        TokenBucket.Take take = bucket.take(FIVE_AT_TWO_PER_SECOND, 9_000);

        assertThat(take.decision().allowed()).isTrue();
        assertThat(take.bucket()).isEqualTo(new TokenBucket(0, 10_000));
    }

    @Test
    void aLimitNeedsACapacityAndARate() {
        assertThatThrownBy(() -> new TokenBucket.Limit(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket.Limit(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new TokenBucket.Limit(100, 50).secondsToFill()).isEqualTo(2);
    }
}
