package io.sagaflow.payment.payments.adapter.postgres;

import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.projection.Projection;
import io.sagaflow.framework.projection.SqlArray;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.projection.ViewWrites;
import io.sagaflow.framework.transaction.AfterCommit;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentDeclined;
import io.sagaflow.payment.contracts.PaymentRefunded;
import io.sagaflow.payment.payments.application.PaymentView;
import io.sagaflow.payment.payments.domain.Money;
import io.sagaflow.payment.payments.domain.PaymentInitiated;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code payment_view} (one row per payment) and {@code customer_credit} (captured and refunded totals per
 * customer) in the transaction of every append, and drops the changed payment from the view cache after commit.
 * Every event changes the totals by its own amount exactly once, so a rebuild by replay gives the same totals.
 */
@Component
class PaymentProjection implements Projection {

    /**
     * The new payments of an append, with their outcome when that is in the same append (the usual case: a saga's
     * charge is initiated and decided at once), in one statement on arrays (ADR 0042). A row already there keeps what
     * it has, but takes the outcome, as {@link #CAPTURE} or {@link #DECLINE} would give it.
     */
    private static final String INSERT_ALL = "insert into payment_view (payment_id, order_id, customer_id, amount,"
            + " currency, method, status, decline_code, reason, created_at, updated_at)"
            + " select p.payment_id, p.order_id, p.customer_id, p.amount, p.currency, p.method, p.status,"
            + " p.decline_code, p.reason, p.created_at::timestamptz, p.updated_at::timestamptz"
            + " from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::numeric[], ?::text[], ?::text[], ?::text[], ?::text[],"
            + " ?::text[], ?::text[], ?::text[]) as p (payment_id, order_id, customer_id, amount, currency, method,"
            + " status, decline_code, reason, created_at, updated_at)"
            + " on conflict (payment_id) do update set status = excluded.status, decline_code = excluded.decline_code,"
            + " reason = excluded.reason, updated_at = excluded.updated_at where excluded.status <> 'PENDING'";

    private static final String CAPTURE =
            "update payment_view set status = 'CAPTURED', updated_at = ? where payment_id = ?";
    private static final String DECLINE = "update payment_view set status = 'DECLINED', decline_code = ?, reason = ?,"
            + " updated_at = ? where payment_id = ?";
    /** What an append adds to its customers' credit, one row per customer, in one statement on arrays. */
    private static final String ADD_TO_CREDIT_ALL = "insert into customer_credit (customer_id, captured, refunded,"
            + " updated_at) select c.customer_id, c.captured, c.refunded, c.at::timestamptz"
            + " from unnest(?::uuid[], ?::numeric[], ?::numeric[], ?::text[]) as c (customer_id, captured, refunded, at)"
            + " on conflict (customer_id) do update set captured = customer_credit.captured + excluded.captured,"
            + " refunded = customer_credit.refunded + excluded.refunded, updated_at = excluded.updated_at";

    private final ViewCache<PaymentView> cache;

    PaymentProjection(ViewCache<PaymentView> cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "payments";
    }

    @Override
    public void apply(EventEnvelope<Object> event, ViewWrites writes) {
        applyAll(List.of(event), writes);
    }

    /**
     * Writes the events' changes kind by kind — new payments (with their outcome when the append decides them too) in
     * one statement, then outcomes of payments created before, then refunds — which keeps every payment's own order
     * (it is created, then decided, then refunded), and each customer's credit once, by the sum of their changes, in
     * one statement for all the append's customers.
     */
    @Override
    public void applyAll(List<EventEnvelope<Object>> events, ViewWrites writes) {
        Map<UUID, NewPayment> created = new LinkedHashMap<>();
        List<Object[]> captured = new ArrayList<>();
        List<Object[]> declined = new ArrayList<>();
        List<EventEnvelope<Object>> refunds = new ArrayList<>();
        Map<UUID, Credit> credit = new LinkedHashMap<>();
        Set<UUID> changed = new LinkedHashSet<>();
        for (EventEnvelope<Object> event : events) {
            Timestamp at = Timestamp.from(event.occurredAt());
            switch (event.payload()) {
                case PaymentInitiated initiated -> {
                    created.put(initiated.paymentId(), new NewPayment(initiated, event.occurredAt()));
                    changed.add(initiated.paymentId());
                }
                case PaymentCaptured capture -> {
                    NewPayment payment = created.get(capture.paymentId());
                    if (payment != null) {
                        payment.decided("CAPTURED", null, null, event.occurredAt());
                    } else {
                        captured.add(new Object[] {at, capture.paymentId()});
                    }
                    credit(credit, capture.customerId(), event.occurredAt()).captured(capture.amount());
                    changed.add(capture.paymentId());
                }
                case PaymentDeclined decline -> {
                    NewPayment payment = created.get(decline.paymentId());
                    if (payment != null) {
                        payment.decided("DECLINED", decline.code(), decline.reason(), event.occurredAt());
                    } else {
                        declined.add(new Object[] {decline.code(), decline.reason(), at, decline.paymentId()});
                    }
                    changed.add(decline.paymentId());
                }
                case PaymentRefunded refunded -> {
                    refunds.add(event);
                    changed.add(refunded.paymentId());
                }
                default -> {
                    // Not a payment's change: RefundNotRequired and consumed types leave both tables as they are.
                }
            }
        }
        insert(writes, created.values());
        captured.forEach(row -> writes.update(CAPTURE, row));
        declined.forEach(row -> writes.update(DECLINE, row));
        for (EventEnvelope<Object> event : refunds) {
            PaymentRefunded refunded = (PaymentRefunded) event.payload();
            Timestamp at = Timestamp.from(event.occurredAt());
            // The answer names the customer to credit: sent now, with what is queued before it.
            UUID customer = writes.jdbc()
                    .queryForObject(
                            "update payment_view set status = 'REFUNDED', refunded_amount = ?, reason = ?,"
                                    + " updated_at = ? where payment_id = ? returning customer_id",
                            UUID.class,
                            refunded.amount(),
                            refunded.reason(),
                            at,
                            refunded.paymentId());
            credit(credit, customer, event.occurredAt()).refunded(refunded.amount());
        }
        addToCredit(writes, credit);
        changed.forEach(paymentId -> cache.invalidateAfterCommit(paymentId.toString()));
    }

    @Override
    public void reset(JdbcTemplate jdbc) {
        jdbc.update("delete from payment_view");
        jdbc.update("delete from customer_credit");
        AfterCommit.run(cache::clear);
    }

    /** Inserts the append's new payments in one statement, each once (they are the values of a map by payment id). */
    private static void insert(ViewWrites writes, Collection<NewPayment> payments) {
        if (payments.isEmpty()) {
            return;
        }
        int size = payments.size();
        Object[][] columns = new Object[11][size];
        int i = 0;
        for (NewPayment payment : payments) {
            PaymentInitiated initiated = payment.initiated;
            columns[0][i] = initiated.paymentId();
            columns[1][i] = initiated.orderId();
            columns[2][i] = initiated.customerId();
            columns[3][i] = (initiated.amount() == null ? Money.ZERO : initiated.amount()).toPlainString();
            columns[4][i] = initiated.currency();
            columns[5][i] = initiated.method();
            columns[6][i] = payment.status;
            columns[7][i] = payment.declineCode;
            columns[8][i] = payment.reason;
            columns[9][i] = payment.createdAt.toString();
            columns[10][i] = payment.updatedAt.toString();
            i++;
        }
        String[] types = {"uuid", "uuid", "uuid", "numeric", "text", "text", "text", "text", "text", "text", "text"};
        SqlArray[] arrays = new SqlArray[columns.length];
        for (int c = 0; c < columns.length; c++) {
            arrays[c] = new SqlArray(types[c], columns[c]);
        }
        writes.update(INSERT_ALL, (Object[]) arrays);
    }

    private static void addToCredit(ViewWrites writes, Map<UUID, Credit> credit) {
        if (credit.isEmpty()) {
            return;
        }
        int size = credit.size();
        UUID[] customers = new UUID[size];
        String[] captured = new String[size];
        String[] refunded = new String[size];
        String[] times = new String[size];
        int i = 0;
        for (Map.Entry<UUID, Credit> entry : credit.entrySet()) {
            customers[i] = entry.getKey();
            captured[i] = entry.getValue().captured.toPlainString();
            refunded[i] = entry.getValue().refunded.toPlainString();
            times[i] = entry.getValue().at.toString();
            i++;
        }
        writes.update(
                ADD_TO_CREDIT_ALL,
                new SqlArray("uuid", customers),
                new SqlArray("numeric", captured),
                new SqlArray("numeric", refunded),
                new SqlArray("text", times));
    }

    /** The customer's credit change in this append, or a sink for it if the payment names no customer. */
    private static Credit credit(Map<UUID, Credit> credit, UUID customerId, Instant at) {
        if (customerId == null) {
            return new Credit(at);
        }
        Credit change = credit.computeIfAbsent(customerId, id -> new Credit(at));
        change.at = at;
        return change;
    }

    /** A payment initiated in this append: its row, with the outcome if the append decides it too. */
    private static final class NewPayment {
        final PaymentInitiated initiated;
        final Instant createdAt;
        String status = "PENDING";
        String declineCode;
        String reason;
        Instant updatedAt;

        NewPayment(PaymentInitiated initiated, Instant at) {
            this.initiated = initiated;
            this.createdAt = at;
            this.updatedAt = at;
        }

        void decided(String status, String declineCode, String reason, Instant at) {
            this.status = status;
            this.declineCode = declineCode;
            this.reason = reason;
            this.updatedAt = at;
        }
    }

    /** What one append adds to a customer's credit row. */
    private static final class Credit {
        BigDecimal captured = BigDecimal.ZERO;
        BigDecimal refunded = BigDecimal.ZERO;
        Instant at;

        Credit(Instant at) {
            this.at = at;
        }

        void captured(BigDecimal amount) {
            captured = captured.add(amount);
        }

        void refunded(BigDecimal amount) {
            refunded = refunded.add(amount);
        }
    }
}
