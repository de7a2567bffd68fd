package io.sagaflow.order.fulfilment.application;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/** The timer of each running saga, kept with the saga's partition; when it fires, a DeadlineReached is delivered. */
public interface SagaDeadlines {

    /** Arms (or moves) the saga's timer to {@code deadline}. */
    void arm(UUID orderId, Instant deadline);

    /** Arms each of {@code armed}'s timers and clears {@code cleared}'s, all at once rather than one after another. */
    void moveAll(Map<UUID, Instant> armed, Collection<UUID> cleared);
}
