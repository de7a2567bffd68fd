package io.sagaflow.inventory.audit.application;

import java.util.List;

/**
 * One page of the active reservations, by order id (PostgreSQL's {@code uuid} order) then product id. A page holds
 * every reservation of each of its orders: it never ends inside an order. The next page starts after the last order
 * id of this one; a page with fewer orders than asked for is the last.
 */
public record ReservationPage(List<ActiveReservation> reservations) {

    public ReservationPage {
        reservations = List.copyOf(reservations);
    }
}
