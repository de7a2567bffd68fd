package io.sagaflow.framework.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.lease.LeaseProcessor.Operation;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LeaseProcessorTest {

    private final UUID a = UUID.randomUUID();
    private final UUID b = UUID.randomUUID();
    private final Set<UUID> both = Set.of(a, b);

    @Test
    void claimsAFreeSlot() {
        Map.Entry<Integer, Lease> slot = new AbstractMap.SimpleEntry<>(0, null);
        Lease lease = new LeaseProcessor(Operation.CLAIM, a, 10_000, both).process(slot);
        assertThat(lease.owner()).isEqualTo(a);
        assertThat(slot.getValue()).isEqualTo(lease);
    }

    @Test
    void doesNotClaimASlotHeldByALiveMember() {
        Lease held = new Lease(a, System.currentTimeMillis() + 10_000, 1);
        Map.Entry<Integer, Lease> slot = new AbstractMap.SimpleEntry<>(0, held);
        assertThat(new LeaseProcessor(Operation.CLAIM, b, 10_000, both).process(slot))
                .isEqualTo(held);
        assertThat(slot.getValue()).isEqualTo(held);
    }

    @Test
    void takesOverAnExpiredLeaseWithAHigherFence() {
        Map.Entry<Integer, Lease> slot =
                new AbstractMap.SimpleEntry<>(0, new Lease(a, System.currentTimeMillis() - 1, 7));
        Lease lease = new LeaseProcessor(Operation.CLAIM, b, 10_000, both).process(slot);
        assertThat(lease.owner()).isEqualTo(b);
        assertThat(lease.fence()).isEqualTo(8);
    }

    @Test
    void takesOverAtOnceFromAMemberThatLeftTheCluster() {
        Map.Entry<Integer, Lease> slot =
                new AbstractMap.SimpleEntry<>(0, new Lease(a, System.currentTimeMillis() + 60_000, 1));
        Lease lease = new LeaseProcessor(Operation.CLAIM, b, 10_000, Set.of(b)).process(slot);
        assertThat(lease.owner()).isEqualTo(b);
    }

    @Test
    void renewsAndReleasesOnlyItsOwnLease() {
        Lease held = new Lease(a, System.currentTimeMillis() + 1_000, 1);
        Map.Entry<Integer, Lease> slot = new AbstractMap.SimpleEntry<>(0, held);
        assertThat(new LeaseProcessor(Operation.RENEW, b, 10_000, both).process(slot))
                .isEqualTo(held);
        assertThat(new LeaseProcessor(Operation.RELEASE, b, 10_000, both).process(slot))
                .isEqualTo(held);
        assertThat(new LeaseProcessor(Operation.RENEW, a, 10_000, both)
                        .process(slot)
                        .expiresAtMillis())
                .isGreaterThan(held.expiresAtMillis());
        assertThat(new LeaseProcessor(Operation.RELEASE, a, 10_000, both).process(slot))
                .isNull();
        assertThat(slot.getValue()).isNull();
    }
}
