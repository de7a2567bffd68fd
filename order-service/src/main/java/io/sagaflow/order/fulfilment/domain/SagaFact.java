package io.sagaflow.order.fulfilment.domain;

import io.sagaflow.framework.domain.DomainEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * What the saga records on the order's stream besides the requests it publishes: the answers it accepted and the
 * turns it took. Private to the order service; together with the order's published events they are the saga's
 * durable state.
 */
public sealed interface SagaFact extends DomainEvent {

    UUID orderId();

    /** Step 2 succeeded. */
    record StockReservationConfirmed(UUID orderId) implements SagaFact {}

    /** Step 2 failed. */
    record StockReservationRejected(UUID orderId, String code, String reason) implements SagaFact {}

    /** Step 3 succeeded. */
    record PaymentCaptureConfirmed(UUID orderId, UUID paymentId, BigDecimal amount) implements SagaFact {}

    /** Step 3 failed. */
    record PaymentRejected(UUID orderId, String code, String reason) implements SagaFact {}

    /** The saga turned to compensation, undoing what may have been done, until {@code deadline}. */
    record CompensationStarted(
            UUID orderId,
            String code,
            String reason,
            String requestedBy,
            boolean releaseStock,
            boolean refundPayment,
            Instant deadline)
            implements SagaFact {}

    /** Inventory confirmed the release. */
    record StockReleaseConfirmed(UUID orderId) implements SagaFact {}

    /** Payment confirmed the refund (or that there was nothing to refund). */
    record RefundConfirmed(UUID orderId, boolean refunded) implements SagaFact {}

    /** Compensation had not finished by its deadline; the outstanding requests were sent again. */
    record CompensationRetried(UUID orderId, int attempt, Instant deadline) implements SagaFact {}

    /** Compensation did not finish after every attempt: the saga is quarantined. */
    record CompensationFailed(UUID orderId, String reason) implements SagaFact {}

    /** An operator closed a quarantined saga without its compensations. */
    record SagaDiscarded(UUID orderId, String operator, String reason) implements SagaFact {}
}
