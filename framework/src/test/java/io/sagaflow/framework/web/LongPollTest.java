package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a long poll reads Prefer (RFC 7240) and If-None-Match (RFC 9110); what it does not understand it ignores. */
class LongPollTest {

    @Test
    void readsTheWaitPreferenceAmongOthers() {
        assertThat(LongPoll.preferredWait(List.of("wait=5"))).isEqualTo(Duration.ofSeconds(5));
        assertThat(LongPoll.preferredWait(List.of("respond-async, Wait=10"))).isEqualTo(Duration.ofSeconds(10));
        assertThat(LongPoll.preferredWait(List.of("handling=lenient", "wait=\"3\"; x=y")))
                .isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void ignoresAMalformedOrMissingWait() {
        assertThat(LongPoll.preferredWait(List.of())).isZero();
        assertThat(LongPoll.preferredWait(List.of("wait=soon", "wait=-1", "wait=", "wait=99999999999")))
                .isZero();
        assertThat(LongPoll.preferredWait(List.of("respond-async"))).isZero();
    }

    @Test
    void matchesEntityTagsByWeakComparison() {
        assertThat(LongPoll.matches("\"PENDING-1\"", "\"PENDING-1\"")).isTrue();
        assertThat(LongPoll.matches("W/\"PENDING-1\"", "\"PENDING-1\"")).isTrue();
        assertThat(LongPoll.matches("\"a\", \"PENDING-1\"", "\"PENDING-1\"")).isTrue();
        assertThat(LongPoll.matches("*", "\"PENDING-1\"")).isTrue();
        assertThat(LongPoll.matches("\"CONFIRMED-2\"", "\"PENDING-1\"")).isFalse();
        assertThat(LongPoll.matches("garbage", "\"PENDING-1\"")).isFalse();
        assertThat(LongPoll.matches(null, "\"PENDING-1\"")).isFalse();
    }
}
