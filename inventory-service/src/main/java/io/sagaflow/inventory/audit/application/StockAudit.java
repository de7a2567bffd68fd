package io.sagaflow.inventory.audit.application;

import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Audits the stock of the whole catalogue against its reservations (an operator's check, not for hot paths). Its
 * memory grows with the number of products, never with the number of orders: reservations are read a page at a time.
 */
@Service
public class StockAudit {

    private final StockLevels levels;

    public StockAudit(StockLevels levels) {
        this.levels = levels;
    }

    public StockAuditReport audit() {
        return StockAuditReport.of(levels.snapshot());
    }

    /** The active reservations of the next {@code orders} orders after {@code afterOrder}; see {@link ReservationPage}. */
    public ReservationPage reservations(Optional<UUID> afterOrder, int orders) {
        return new ReservationPage(levels.activeReservations(afterOrder, orders));
    }
}
