package io.sagaflow.payment.audit.adapter.web;

import io.sagaflow.payment.audit.application.PaymentAudit;
import io.sagaflow.payment.audit.application.PaymentAuditQuery;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/admin/audit/payments}: captured and refunded money per order, and the totals. */
@RestController
@Tag(name = "Admin", description = "Operator views for invariant checks")
class PaymentAuditController {

    private final PaymentAuditQuery query;

    PaymentAuditController(PaymentAuditQuery query) {
        this.query = query;
    }

    @GetMapping("/api/admin/audit/payments")
    @Operation(summary = "Captured and refunded amounts per order, with totals")
    PaymentAudit payments() {
        return query.audit();
    }
}
