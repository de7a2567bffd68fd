package io.sagaflow.payment.payments.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A customer's credit as read, under lock, just before a payment is decided.
 *
 * @param outstanding captured minus refunded over all the customer's payments
 * @param limit the most the customer may have outstanding
 */
public record CreditPosition(BigDecimal outstanding, BigDecimal limit) {

    public CreditPosition {
        outstanding = Money.of(Objects.requireNonNull(outstanding, "outstanding"));
        limit = Money.of(Objects.requireNonNull(limit, "limit"));
    }

    /** Whether charging {@code amount} more would take the outstanding total above the limit. */
    public boolean wouldExceed(BigDecimal amount) {
        return outstanding.add(amount).compareTo(limit) > 0;
    }
}
