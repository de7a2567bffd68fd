package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryExpiredListener;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.order.fulfilment.application.SagaDeadlines;
import io.sagaflow.order.fulfilment.application.SagaInbox;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import io.sagaflow.order.fulfilment.domain.SagaMessage.DeadlineReached;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Saga timers as map entries that expire at the deadline, in the same partition as the saga's inbox messages. The
 * member that owns the partition sees the expiry (a local listener) and puts a {@link DeadlineReached} into the inbox;
 * if that member dies, the backup's new owner does. No scheduler runs in every replica, and no timer is lost with a
 * replica.
 */
public class HazelcastSagaDeadlines implements SagaDeadlines {

    private final IMap<String, String> timers;
    private final SagaInbox inbox;
    private UUID listener;

    public HazelcastSagaDeadlines(HazelcastInstance member, SagaInbox inbox) {
        this.timers = member.getMap(SagaNames.DEADLINES);
        this.inbox = inbox;
    }

    /** Starts turning expiries on this member's partitions into inbox messages. */
    public void start() {
        listener = timers.addLocalEntryListener((EntryExpiredListener<String, String>) this::expired);
    }

    public void stop() {
        if (listener != null) {
            timers.removeEntryListener(listener);
            listener = null;
        }
    }

    @Override
    public void arm(UUID orderId, Instant deadline) {
        // The exact instant, not epoch millis: the saga only honours the deadline it armed, to the nanosecond.
        timers.set(orderId.toString(), deadline.toString(), ttlMillis(deadline), TimeUnit.MILLISECONDS);
    }

    @Override
    public void moveAll(Map<UUID, Instant> armed, Collection<UUID> cleared) {
        List<CompletableFuture<?>> moves = new ArrayList<>(armed.size() + cleared.size());
        armed.forEach((orderId, deadline) -> moves.add(
                timers.setAsync(orderId.toString(), deadline.toString(), ttlMillis(deadline), TimeUnit.MILLISECONDS)
                        .toCompletableFuture()));
        cleared.forEach(
                orderId -> moves.add(timers.deleteAsync(orderId.toString()).toCompletableFuture()));
        moves.forEach(CompletableFuture::join);
    }

    /** The deadline the saga's timer is armed for, if it is armed. */
    public Optional<Instant> armed(UUID orderId) {
        return Optional.ofNullable(timers.get(orderId.toString())).map(Instant::parse);
    }

    /**
     * The sagas open on this member: placed on its partitions and not yet ended. Every such saga has its timer armed
     * (the placement arms it, its end clears it), wherever its next message waits.
     */
    public int open() {
        return Math.toIntExact(timers.getLocalMapStats().getOwnedEntryCount());
    }

    private static long ttlMillis(Instant deadline) {
        return Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
    }

    private void expired(EntryEvent<String, String> event) {
        UUID orderId = UUID.fromString(event.getKey());
        Instant deadline = Instant.parse(event.getOldValue());
        inbox.add(
                "deadline-" + orderId + "-" + deadline.toEpochMilli(),
                orderId,
                SagaInboxEntry.of(
                        new DeadlineReached(orderId, deadline), EventMetadata.startingFlow(orderId.toString())));
    }
}
