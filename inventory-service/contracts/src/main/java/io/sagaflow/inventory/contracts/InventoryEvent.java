package io.sagaflow.inventory.contracts;

import io.sagaflow.framework.domain.DomainEvent;

/** An event the inventory service publishes. */
public sealed interface InventoryEvent extends DomainEvent
        permits ProductCreated, StockReserved, StockReservationFailed, StockReleased {}
