package io.sagaflow.payment.audit.adapter.web;

import io.sagaflow.payment.audit.application.PaymentAudit;
import io.sagaflow.payment.audit.application.PaymentAuditQuery;
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
 * {@code GET /api/admin/audit/payments?after=&limit=&totals=}: captured and refunded money per order, one page of
 * orders at a time (keyset pagination by order id), and the totals unless {@code totals=false}. A malformed {@code
 * after} or {@code totals}, or a {@code limit} outside 1 to 10 000, is a 400 problem.
 */
@RestController
@Tag(name = "Admin", description = "Operator views for invariant checks")
class PaymentAuditController {

    private final PaymentAuditQuery query;

    PaymentAuditController(PaymentAuditQuery query) {
        this.query = query;
    }

    @GetMapping("/api/admin/audit/payments")
    @Operation(summary = "Captured and refunded amounts per order, a page at a time, with totals")
    PaymentAudit payments(
            @Parameter(description = "Only orders after this id (uuid order); none for the first page")
                    @RequestParam(required = false)
                    UUID after,
            @Parameter(description = "At most this many orders")
                    @RequestParam(defaultValue = "1000")
                    @Min(1)
                    @Max(10_000)
                    int limit,
            @Parameter(description = "Whether to add the totals over every order, which read every payment")
                    @RequestParam(defaultValue = "true")
                    boolean totals) {
        return query.audit(Optional.ofNullable(after), limit, totals);
    }
}
