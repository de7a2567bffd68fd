package io.sagaflow.inventory.audit.adapter.web;

import io.sagaflow.inventory.audit.application.ReservationPage;
import io.sagaflow.inventory.audit.application.StockAudit;
import io.sagaflow.inventory.audit.application.StockAuditReport;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Optional;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/admin/audit/stock}: every product's stock against the sum of its active reservations; and
 * {@code GET /api/admin/audit/stock/reservations?after=&limit=}: the active reservations themselves, a page of whole
 * orders at a time (keyset pagination by order id). A malformed {@code after} or a {@code limit} outside 1 to 10 000
 * is a 400 problem.
 */
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

    @GetMapping("/api/admin/audit/stock/reservations")
    @Operation(summary = "The active reservations of the next orders by order id, every reservation of each order")
    ReservationPage reservations(
            @Parameter(description = "Only orders after this id (uuid order); none for the first page")
                    @RequestParam(required = false)
                    UUID after,
            @Parameter(description = "At most this many orders (not rows)")
                    @RequestParam(defaultValue = "1000")
                    @Min(1)
                    @Max(10_000)
                    int limit) {
        return audit.reservations(Optional.ofNullable(after), limit);
    }
}
