package io.sagaflow.framework.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    @Test
    void laysOutTimeVersionVariantAndRandomBitsAsRfc9562Says() {
        // RFC 9562, appendix A.6: 2022-02-22T19:22:22Z, random bits 0xCC3 and 0x18C4DC0C0C07398F.
        UUID id = TimeOrderedIds.of(0x017F22E279B0L, 0xCC3L, 0x18C4DC0C0C07398FL << 2);

        assertThat(id).hasToString("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(TimeOrderedIds.epochMillisOf(id))
                .isEqualTo(Instant.parse("2022-02-22T19:22:22Z").toEpochMilli());
    }

    @Test
    void idsOfLaterMillisecondsSortAfterEarlierOnesAsUuidsAndAsText() {
        // PostgreSQL compares uuid bytes unsigned, and text stream ids ("order-" + id) by their characters.
        List<UUID> ids = Stream.of(1L, 2L, 255L, 256L, 1L << 40, (1L << 47) + 5)
                .map(millis -> TimeOrderedIds.of(millis, -1L, -1L))
                .toList();

        for (int i = 1; i < ids.size(); i++) {
            UUID earlier = ids.get(i - 1);
            UUID later = ids.get(i);
            assertThat(Long.compareUnsigned(later.getMostSignificantBits(), earlier.getMostSignificantBits()))
                    .isPositive();
            assertThat(later.toString()).isGreaterThan(earlier.toString());
        }
    }

    @Test
    void stampsTheClocksTimeAndNeverRepeats() {
        Instant at = Instant.parse("2026-11-28T12:00:00.123Z");
        TimeOrderedIds ids = new TimeOrderedIds(Clock.fixed(at, ZoneOffset.UTC));

        Set<UUID> made = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = ids.nextId();
            assertThat(TimeOrderedIds.epochMillisOf(id)).isEqualTo(at.toEpochMilli());
            assertThat(id.variant()).isEqualTo(2);
            made.add(id);
        }
        assertThat(made).hasSize(10_000);
    }

    @Test
    void theSystemClocksIdsAreOfNow() {
        long before = System.currentTimeMillis();
        UUID id = TimeOrderedIds.next();

        assertThat(TimeOrderedIds.epochMillisOf(id)).isBetween(before, System.currentTimeMillis());
    }

    @Test
    void refusesTimesThatDoNotFitAndIdsOfOtherVersions() {
        assertThatThrownBy(() -> TimeOrderedIds.of(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimeOrderedIds.of(1L << 48, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimeOrderedIds.epochMillisOf(UUID.randomUUID()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 7");
    }
}
