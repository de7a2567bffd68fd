package io.sagaflow.framework.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LingerTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Linger linger = Linger.of(Duration.ofMillis(10), now::get);

    @Test
    void aLoopLingersOnlyWhileItsRoundsBeginLessThanFourLingersApart() {
        assertThat(linger.roundBegins()).as("the first round").isFalse();
        advance(39);
        assertThat(linger.roundBegins()).as("39 ms after the last").isTrue();
        advance(39);
        assertThat(linger.roundBegins()).isTrue();
        advance(40);
        assertThat(linger.roundBegins()).as("40 ms after the last").isFalse();
        advance(500);
        assertThat(linger.roundBegins()).as("quiet").isFalse();
        advance(1);
        assertThat(linger.roundBegins()).as("busy again").isTrue();
    }

    @Test
    void noLingerNeverWaits() {
        Linger none = Linger.of(Duration.ZERO, now::get);
        none.roundBegins();
        assertThat(none.roundBegins()).isFalse();
    }

    @Test
    void aLingerIsBetweenZeroAndFiftyMilliseconds() {
        assertThat(Linger.checked(Linger.MOST)).isEqualTo(Duration.ofMillis(50));
        assertThatThrownBy(() -> Linger.of(Duration.ofMillis(51))).hasMessageContaining("linger");
        assertThatThrownBy(() -> Linger.checked(Duration.ofNanos(-1))).hasMessageContaining("linger");
    }

    private void advance(long millis) {
        now.addAndGet(Duration.ofMillis(millis).toNanos());
    }
}
