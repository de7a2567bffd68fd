package io.sagaflow.inventory.reservation.domain;

import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import java.util.List;

/**
 * The state of one order's reservation stream ({@code reservation-<orderId>}).
 *
 * @param placement how the order's placement was answered, if it was
 * @param released whether the release request was answered (then it never is again)
 * @param lines the reserved lines while {@code placement} is {@code RESERVED}, else empty
 */
public record OrderReservation(Placement placement, boolean released, List<ReservedLine> lines) {

    public OrderReservation {
        lines = List.copyOf(lines);
    }

    /** The answer given to the order's placement. */
    public enum Placement {
        /** No answer yet. */
        UNANSWERED,
        /** Every line was reserved. */
        RESERVED,
        /** Nothing was reserved. */
        FAILED
    }

    /** A stream without events. */
    public static OrderReservation none() {
        return new OrderReservation(Placement.UNANSWERED, false, List.of());
    }
}
