package io.sagaflow.framework.lease;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Shares {@code slots} numbered slots fairly among the members of one Hazelcast cluster that take part. Each such
 * member calls {@link #rebalance()} periodically: it renews its leases, gives up those above its fair share (so a
 * member that takes part gets work), and claims free ones up to its fair share: free meaning never held, expired, or
 * held by a member that has left the cluster. Every change is a {@link LeaseProcessor} compare-and-set, so two members
 * never hold the same slot at once in normal operation.
 *
 * <p>A member takes part from its first {@link #rebalance()}, which records it in a second map, until
 * {@link #releaseAll()} or its record's expiry. Only members that take part count for the fair share: a member joins
 * the cluster early in its start, long before it rebalances, and counting it from then would have the others give up
 * slots that nobody takes until it does (ADR 0074). {@link #onChange} tells a member when another starts or stops
 * taking part or gives a slot up, so that shares move at once rather than at the next renewal.
 *
 * <p>Not thread-safe: one thread per member drives it.
 */
public final class LeaseTable {

    private final HazelcastInstance member;
    private final IMap<Integer, Lease> leases;
    /** The members that take part, each until its record expires: {@code ttl} after its last rebalance. */
    private final IMap<UUID, Long> takingPart;

    private final int slots;
    private final Duration ttl;
    private final Clock clock;
    private final UUID self;
    private Set<Integer> held = Set.of();
    private Map<Integer, UUID> holders = Map.of();
    private long validUntilMillis;

    /**
     * @param member this service's cluster member
     * @param mapName the map holding the leases (bounded: one entry per slot)
     * @param slots how many slots there are
     * @param ttl how long a lease lasts without renewal; renew at least every third of it
     */
    public LeaseTable(HazelcastInstance member, String mapName, int slots, Duration ttl, Clock clock) {
        this.member = member;
        this.leases = member.getMap(mapName);
        this.takingPart = member.getMap(mapName + ".members");
        this.slots = slots;
        this.ttl = ttl;
        this.clock = clock;
        this.self = member.getCluster().getLocalMember().getUuid();
    }

    /** Renews, releases and claims so this member holds its fair share; returns the slots it holds now. */
    public Set<Integer> rebalance() {
        long started = clock.millis();
        Set<UUID> live =
                member.getCluster().getMembers().stream().map(Member::getUuid).collect(Collectors.toUnmodifiableSet());
        takingPart.set(self, started + ttl.toMillis(), ttl.toMillis(), TimeUnit.MILLISECONDS);
        Set<UUID> sharing = new HashSet<>(takingPart.getAll(live).keySet());
        sharing.add(self);
        int fairShare = (slots + sharing.size() - 1) / sharing.size();

        Set<Integer> all = IntStream.range(0, slots).boxed().collect(Collectors.toSet());
        Map<Integer, Lease> current = leases.getAll(all);
        TreeSet<Integer> mine = new TreeSet<>();
        List<Integer> claimable = new ArrayList<>();
        for (int slot = 0; slot < slots; slot++) {
            Lease lease = current.get(slot);
            if (lease != null && lease.owner().equals(self)) {
                mine.add(slot);
            } else if (lease == null || lease.expiresAtMillis() <= started || !live.contains(lease.owner())) {
                claimable.add(slot);
            }
        }

        Set<Integer> surplus = new HashSet<>();
        while (mine.size() - surplus.size() > fairShare) {
            surplus.add(mine.descendingSet().stream()
                    .filter(s -> !surplus.contains(s))
                    .findFirst()
                    .orElseThrow());
        }
        if (!surplus.isEmpty()) {
            leases.executeOnKeys(surplus, processor(LeaseProcessor.Operation.RELEASE, live));
            mine.removeAll(surplus);
        }

        Set<Integer> nowHeld = new TreeSet<>();
        if (!mine.isEmpty()) {
            leases.executeOnKeys(mine, processor(LeaseProcessor.Operation.RENEW, live))
                    .forEach((slot, lease) -> addIfOurs(nowHeld, slot, lease));
        }
        int wanted = fairShare - nowHeld.size();
        if (wanted > 0 && !claimable.isEmpty()) {
            // Start at a member-specific offset so members joining together do not all race for the same slots.
            Collections.rotate(claimable, Math.floorMod(self.hashCode(), claimable.size()));
            Set<Integer> candidates = new HashSet<>(claimable.subList(0, Math.min(wanted, claimable.size())));
            leases.executeOnKeys(candidates, processor(LeaseProcessor.Operation.CLAIM, live))
                    .forEach((slot, lease) -> addIfOurs(nowHeld, slot, lease));
        }
        held = Collections.unmodifiableSet(nowHeld);
        Map<Integer, UUID> nowHolders = new HashMap<>();
        current.forEach((slot, lease) -> {
            if (!lease.owner().equals(self) && !claimable.contains(slot)) {
                nowHolders.put(slot, lease.owner());
            }
        });
        nowHeld.forEach(slot -> nowHolders.put(slot, self));
        holders = Collections.unmodifiableMap(nowHolders);
        validUntilMillis = started + ttl.toMillis() * 2 / 3;
        return held;
    }

    /** The slots held after the last {@link #rebalance()}, or none if that is too long ago to trust. */
    public Set<Integer> held() {
        return clock.millis() < validUntilMillis ? held : Set.of();
    }

    /**
     * Who held each slot at the last {@link #rebalance()}: this member's slots, and the live, unexpired leases of
     * others. Slots free then are missing. Others' leases may have changed hands since.
     */
    public Map<Integer, UUID> holders() {
        return holders;
    }

    /** Whether the leases should be renewed now (a third of the TTL has passed since the last rebalance). */
    public boolean dueForRenewal() {
        return untilRenewal().isZero();
    }

    /** How long until {@link #dueForRenewal()}; zero if it is due now. */
    public Duration untilRenewal() {
        return Duration.ofMillis(Math.max(0, validUntilMillis - ttl.toMillis() / 3 - clock.millis()));
    }

    /**
     * Stops taking part and gives up every slot this member holds: on orderly shutdown, so others take over at once.
     */
    public void releaseAll() {
        Set<Integer> mine = held;
        held = Set.of();
        holders = Map.of();
        validUntilMillis = 0;
        if (member.getLifecycleService().isRunning()) {
            takingPart.delete(self);
            if (!mine.isEmpty()) {
                leases.executeOnKeys(mine, processor(LeaseProcessor.Operation.RELEASE, Set.of()));
            }
        }
    }

    /**
     * Calls {@code changed} whenever a member joins or leaves the cluster (a crashed member's slots are free once it
     * has left), a member starts or stops taking part, or a slot is given up or expires: then a {@link #rebalance()}
     * moves the shares. A renewal calls nothing. Returns what stops the calls.
     */
    public Runnable onChange(Runnable changed) {
        ShareChanges listener = new ShareChanges(changed);
        UUID members = takingPart.addEntryListener(listener, false);
        UUID slotsGivenUp = leases.addEntryListener(listener, false);
        UUID membership = member.getCluster().addMembershipListener(listener);
        return () -> {
            takingPart.removeEntryListener(members);
            leases.removeEntryListener(slotsGivenUp);
            member.getCluster().removeMembershipListener(membership);
        };
    }

    /**
     * A member joined or left; added or gone: a member that takes part, or (gone only) a slot's lease. Updates are
     * renewals and claims.
     */
    private record ShareChanges(Runnable changed)
            implements EntryAddedListener<Object, Object>,
                    EntryRemovedListener<Object, Object>,
                    EntryExpiredListener<Object, Object>,
                    MembershipListener {

        @Override
        public void entryAdded(EntryEvent<Object, Object> event) {
            if (event.getKey() instanceof UUID) {
                changed.run();
            }
        }

        @Override
        public void entryRemoved(EntryEvent<Object, Object> event) {
            changed.run();
        }

        @Override
        public void entryExpired(EntryEvent<Object, Object> event) {
            changed.run();
        }

        @Override
        public void memberAdded(MembershipEvent event) {
            changed.run();
        }

        @Override
        public void memberRemoved(MembershipEvent event) {
            changed.run();
        }
    }

    /** The holder of every slot, for operators and tests. */
    public Map<Integer, Lease> snapshot() {
        return leases.getAll(IntStream.range(0, slots).boxed().collect(Collectors.toSet()));
    }

    private LeaseProcessor processor(LeaseProcessor.Operation operation, Set<UUID> live) {
        return new LeaseProcessor(operation, self, ttl.toMillis(), Set.copyOf(live));
    }

    private void addIfOurs(Set<Integer> into, Integer slot, Lease lease) {
        if (lease != null && lease.owner().equals(self)) {
            into.add(slot);
        }
    }
}
