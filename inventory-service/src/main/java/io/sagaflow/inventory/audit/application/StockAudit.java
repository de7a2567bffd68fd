package io.sagaflow.inventory.audit.application;

import org.springframework.stereotype.Service;

/** Audits the stock of the whole catalogue against its reservations (an operator's check, not for hot paths). */
@Service
public class StockAudit {

    private final StockLevels levels;

    public StockAudit(StockLevels levels) {
        this.levels = levels;
    }

    public StockAuditReport audit() {
        return StockAuditReport.of(levels.snapshot());
    }
}
