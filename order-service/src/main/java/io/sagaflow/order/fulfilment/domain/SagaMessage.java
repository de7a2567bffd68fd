package io.sagaflow.order.fulfilment.domain;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * What an order fulfilment saga reacts to: the participants' answers, its deadline, and requests from customers and
 * operators. Each names the order it belongs to.
 */
public sealed interface SagaMessage extends Serializable {

    UUID orderId();

    /**
     * The order was placed. It changes nothing in the saga; the feed no longer sends it since the placement arms the
     * deadline (ADR 0033), but an inbox filled by an older replica during an upgrade may still hold some.
     */
    record OrderWasPlaced(UUID orderId) implements SagaMessage {}

    /**
     * Inventory reserved every line of the order. The feed no longer sends it since payment charges on the reservation
     * itself (ADR 0055), but an inbox filled by an older replica during an upgrade may still hold some.
     */
    record StockWasReserved(UUID orderId) implements SagaMessage {}

    /** Inventory reserved nothing; {@code code} says why. */
    record StockWasNotReserved(UUID orderId, String code, String reason) implements SagaMessage {}

    /** Inventory released what it had reserved for the order (possibly nothing). */
    record StockWasReleased(UUID orderId) implements SagaMessage {}

    /** Payment charged the order total. */
    record PaymentWasCaptured(UUID orderId, UUID paymentId, BigDecimal amount) implements SagaMessage {}

    /** Payment refused the charge; {@code code} says why. */
    record PaymentWasDeclined(UUID orderId, String code, String reason) implements SagaMessage {}

    /** Payment refunded the order's charge, or had nothing to refund. */
    record PaymentWasSettled(UUID orderId, boolean refunded) implements SagaMessage {}

    /** The deadline armed for {@code deadline} has passed. */
    record DeadlineReached(UUID orderId, Instant deadline) implements SagaMessage {}

    /** The customer (or someone on their behalf) asked to cancel the order. */
    record CancellationRequested(UUID orderId, String reason, String cancelledBy) implements SagaMessage {}

    /** An operator asks a quarantined saga to try its compensations again. */
    record CompensationRetryRequested(UUID orderId, String operator) implements SagaMessage {}

    /** An operator gives up on a quarantined saga's compensations and closes it. */
    record DiscardRequested(UUID orderId, String operator, String reason) implements SagaMessage {}
}
