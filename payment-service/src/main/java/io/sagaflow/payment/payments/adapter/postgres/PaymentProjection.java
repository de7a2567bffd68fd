package io.sagaflow.payment.payments.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentDeclined;
import io.sagaflow.payment.contracts.PaymentRefunded;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.domain.Money;
import io.sagaflow.payment.payments.domain.PaymentInitiated;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Keeps {@code payment_view} (one row per payment) and {@code customer_credit} (captured and refunded totals per
 * customer) in the transaction of every append, and drops the changed payment from the view cache after commit.
 * Every event changes the totals by its own amount exactly once, so a rebuild by replay gives the same totals.
 */
@Component
class PaymentProjection implements Projection {

    private final ViewCache<PaymentView> cache;

    PaymentProjection(ViewCache<PaymentView> cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "payments";
    }

    @Override
    public void apply(EventEnvelope<Object> event, JdbcTemplate jdbc) {
        Timestamp at = Timestamp.from(event.occurredAt());
        switch (event.payload()) {
            case PaymentInitiated initiated -> {
                jdbc.update(
                        "insert into payment_view (payment_id, order_id, customer_id, amount, currency, method,"
                                + " status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)"
                                + " on conflict do nothing",
                        initiated.paymentId(),
                        initiated.orderId(),
                        initiated.customerId(),
                        initiated.amount() == null ? Money.ZERO : initiated.amount(),
                        initiated.currency(),
                        initiated.method(),
                        at,
                        at);
                changed(initiated.paymentId());
            }
            case PaymentCaptured captured -> {
                jdbc.update(
                        "update payment_view set status = 'CAPTURED', updated_at = ? where payment_id = ?",
                        at,
                        captured.paymentId());
                addToCredit(jdbc, captured.customerId(), captured.amount(), BigDecimal.ZERO, at);
                changed(captured.paymentId());
            }
            case PaymentDeclined declined -> {
                jdbc.update(
                        "update payment_view set status = 'DECLINED', decline_code = ?, reason = ?, updated_at = ?"
                                + " where payment_id = ?",
                        declined.code(),
                        declined.reason(),
                        at,
                        declined.paymentId());
                changed(declined.paymentId());
            }
            case PaymentRefunded refunded -> {
                UUID customer = jdbc.queryForObject(
                        "update payment_view set status = 'REFUNDED', refunded_amount = ?, reason = ?,"
                                + " updated_at = ? where payment_id = ? returning customer_id",
                        UUID.class,
                        refunded.amount(),
                        refunded.reason(),
                        at,
                        refunded.paymentId());
                addToCredit(jdbc, customer, BigDecimal.ZERO, refunded.amount(), at);
                changed(refunded.paymentId());
            }
            default -> {
                // Not a payment's change: RefundNotRequired and consumed types leave both tables as they are.
            }
        }
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from payment_view");
        jdbc.update("delete from customer_credit");
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    cache.clear();
                }
            });
        } else {
            cache.clear();
        }
    }

    private static void addToCredit(
            JdbcTemplate jdbc, UUID customerId, BigDecimal captured, BigDecimal refunded, Timestamp at) {
        if (customerId == null) {
            return;
        }
        jdbc.update(
                "insert into customer_credit (customer_id, captured, refunded, updated_at) values (?, ?, ?, ?)"
                        + " on conflict (customer_id) do update set captured = customer_credit.captured"
                        + " + excluded.captured, refunded = customer_credit.refunded + excluded.refunded,"
                        + " updated_at = excluded.updated_at",
                customerId,
                captured,
                refunded,
                at);
    }

    private void changed(UUID paymentId) {
        cache.invalidateAfterCommit(paymentId.toString());
    }
}
