package io.sagaflow.inventory.reservation.domain;

import io.sagaflow.framework.domain.Command;

/** A saga request about one order's reservation; decided by {@link OrderReservationDecider}. */
public sealed interface ReservationCommand extends Command permits ReserveOrderStock, ReleaseOrderStock {}
