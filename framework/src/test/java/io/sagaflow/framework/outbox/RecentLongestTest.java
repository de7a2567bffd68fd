package io.sagaflow.framework.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentLongestTest {

    private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");
    private final RecentLongest longest = new RecentLongest(Duration.ofMinutes(5));

    @Test
    void nothingRecorded_isZero() {
        assertThat(longest.over(T0)).isZero();
    }

    @Test
    void theLongestValueStaysForAtLeastOneWindowAndAtMostTwo() {
        longest.record(Duration.ofSeconds(3), T0);
        longest.record(Duration.ofSeconds(40), T0.plusSeconds(60));
        longest.record(Duration.ofSeconds(2), T0.plusSeconds(120));

        assertThat(longest.over(T0.plusSeconds(299))).isEqualTo(Duration.ofSeconds(40));
        assertThat(longest.over(T0.plusSeconds(301))).as("in the window before").isEqualTo(Duration.ofSeconds(40));
        longest.record(Duration.ofSeconds(1), T0.plusSeconds(400));
        assertThat(longest.over(T0.plusSeconds(599))).isEqualTo(Duration.ofSeconds(40));
        assertThat(longest.over(T0.plusSeconds(602))).as("two windows on").isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aWindowWithoutRecords_dropsWhatCameBeforeIt() {
        longest.record(Duration.ofSeconds(40), T0);

        assertThat(longest.over(T0.plusSeconds(700))).isZero();
    }
}
