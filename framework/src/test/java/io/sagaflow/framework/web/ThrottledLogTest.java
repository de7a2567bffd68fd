package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThrottledLogTest {

    private final AtomicLong now = new AtomicLong(-5_000_000_000L); // nanoTime may be negative
    private final List<String> lines = new ArrayList<>();
    private final ThrottledLog log = new ThrottledLog(lines::add, Duration.ofSeconds(10), now::get);

    @Test
    void writesTheFirstLineOfAKind_thenOneAWindow_sayingHowManyItLeftOut() {
        log.write("busy", () -> "busy 1");
        for (int i = 2; i <= 500; i++) {
            now.addAndGet(10_000_000); // 100 a second
            String line = "busy " + i;
            log.write("busy", () -> line);
        }
        // 500 lines over 4.99 s: only the first is written
        assertThat(lines).containsExactly("busy 1");

        now.addAndGet(Duration.ofSeconds(6).toNanos());
        log.write("busy", () -> "busy 501");

        assertThat(lines).containsExactly("busy 1", "busy 501 (and 499 more like it since the last such line)");
    }

    @Test
    void eachKindHasAWindowOfItsOwn() {
        log.write("busy", () -> "busy");
        log.write("unavailable", () -> "unavailable");
        log.write("busy", () -> "busy again");

        assertThat(lines).containsExactly("busy", "unavailable");
    }
}
