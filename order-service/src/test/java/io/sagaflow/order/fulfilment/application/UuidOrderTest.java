package io.sagaflow.order.fulfilment.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidOrderTest {

    @Test
    void givenAnIdWithTheTopBitSet_thenItSortsAfterOneWithout_unlikeUuidCompareTo() {
        UUID low = UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff");
        UUID high = UUID.fromString("80000000-0000-0000-0000-000000000000");

        assertThat(UuidOrder.POSTGRES.compare(low, high)).isNegative();
        assertThat(UuidOrder.POSTGRES.compare(high, low)).isPositive();
        assertThat(low.compareTo(high)).as("UUID.compareTo is signed").isPositive();
    }

    @Test
    void givenIdsDifferingOnlyInTheLowHalf_thenItIsComparedUnsignedToo() {
        UUID low = UUID.fromString("00000000-0000-0000-7fff-ffffffffffff");
        UUID high = UUID.fromString("00000000-0000-0000-8000-000000000000");

        assertThat(UuidOrder.POSTGRES.compare(low, high)).isNegative();
        assertThat(UuidOrder.POSTGRES.compare(high, high)).isZero();
    }

    @Test
    void givenRandomIds_thenTheOrderIsThatOfTheirLowercaseCanonicalStrings() {
        Random random = new Random(42);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(new UUID(random.nextLong(), random.nextLong()));
        }
        ids.add(new UUID(0, 0));
        ids.add(new UUID(-1, -1));
        ids.add(new UUID(Long.MIN_VALUE, Long.MAX_VALUE));
        ids.add(new UUID(Long.MAX_VALUE, Long.MIN_VALUE));

        List<UUID> byComparator = new ArrayList<>(ids);
        byComparator.sort(UuidOrder.POSTGRES);
        List<UUID> byString = new ArrayList<>(ids);
        byString.sort(Comparator.comparing(UUID::toString));

        assertThat(byComparator).containsExactlyElementsOf(byString);
    }
}
