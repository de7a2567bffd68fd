package io.sagaflow.payment.audit.application;

import java.util.Optional;
import java.util.UUID;

/** Computes the {@link PaymentAudit} from the committed payments, one page of orders at a time. */
public interface PaymentAuditQuery {

    /**
     * One page of the audit: the orders with a payment whose id is greater than {@code after} (all of them when it is
     * empty), in PostgreSQL's {@code uuid} order, at most {@code limit}. The next page starts after the last order id
     * of this one; a page with fewer than {@code limit} orders is the last.
     */
    PaymentAudit audit(Optional<UUID> after, int limit);
}
