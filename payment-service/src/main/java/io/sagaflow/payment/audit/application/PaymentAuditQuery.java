package io.sagaflow.payment.audit.application;

import java.util.Optional;
import java.util.UUID;

/** Computes the {@link PaymentAudit} from the committed payments, one page of orders at a time. */
public interface PaymentAuditQuery {

    /**
     * One page of the audit: the orders with a payment whose id is greater than {@code after} (all of them when it is
     * empty), in PostgreSQL's {@code uuid} order, at most {@code limit}. The next page starts after the last order id
     * of this one; a page with fewer than {@code limit} orders is the last. The totals, which read every payment, only
     * if {@code totals} asks for them: a caller walking all pages needs them once at most (the order service's audit
     * not at all), and reading them on every page makes the walk quadratic in the orders.
     */
    PaymentAudit audit(Optional<UUID> after, int limit, boolean totals);
}
