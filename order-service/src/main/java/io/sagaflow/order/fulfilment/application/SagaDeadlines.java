package io.sagaflow.order.fulfilment.application;

import java.time.Instant;
import java.util.UUID;

/** The timer of each running saga, kept with the saga's partition; when it fires, a DeadlineReached is delivered. */
public interface SagaDeadlines {

    /** Arms (or moves) the saga's timer to {@code deadline}. */
    void arm(UUID orderId, Instant deadline);

    /** Clears the saga's timer. */
    void clear(UUID orderId);
}
