package io.sagaflow.inventory.audit.adapter.web;

import io.sagaflow.inventory.audit.application.StockAudit;
import io.sagaflow.inventory.audit.application.StockAuditReport;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/admin/audit/stock}: every product's stock against its active reservations. */
@RestController
@Tag(name = "Admin", description = "Operator checks")
public class StockAuditController {

    private final StockAudit audit;

    public StockAuditController(StockAudit audit) {
        this.audit = audit;
    }

    @GetMapping("/api/admin/audit/stock")
    @Operation(summary = "Whether reserved stock matches the active reservations of every product")
    StockAuditReport stock() {
        return audit.audit();
    }
}
