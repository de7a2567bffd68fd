package io.sagaflow.order.ordering.domain;

import io.sagaflow.framework.domain.DomainEvent;
import java.util.UUID;

/**
 * Someone asked to cancel a pending order. Published on the shared topic so the saga hears it in order with the
 * order's other events, on whichever replica runs that order's saga.
 */
public record OrderCancellationRequested(UUID orderId, String reason, String cancelledBy) implements DomainEvent {}
