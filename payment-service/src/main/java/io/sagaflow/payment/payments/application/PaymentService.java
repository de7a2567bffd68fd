package io.sagaflow.payment.payments.application;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.payments.domain.AuthorisePayment;
import io.sagaflow.payment.payments.domain.CreditPosition;
import io.sagaflow.payment.payments.domain.PaymentCommand;
import io.sagaflow.payment.payments.domain.PaymentNotFoundException;
import io.sagaflow.payment.payments.domain.PaymentState;
import io.sagaflow.payment.payments.domain.RefundPayment;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Authorises and refunds payments. Each write runs in one transaction (joining the caller's, e.g. a saga consumer's)
 * that first locks the customer's credit row, then decides on the payment stream and appends; the projections update
 * the views and credit totals in that same transaction. Two payments of one customer are therefore decided one after
 * the other, each on the credit the previous one left, and the credit limit holds under any concurrency.
 */
@Service
public class PaymentService {

    private final DeciderRepository<PaymentCommand, PaymentState, DomainEvent> payments;
    private final CustomerCredit credit;
    private final PaymentViews views;
    private final ViewCache<PaymentView> cache;
    private final TransactionTemplate transactions;
    private final PaymentProperties properties;

    public PaymentService(
            DeciderRepository<PaymentCommand, PaymentState, DomainEvent> payments,
            CustomerCredit credit,
            PaymentViews views,
            ViewCache<PaymentView> cache,
            TransactionTemplate transactions,
            PaymentProperties properties) {
        this.payments = payments;
        this.credit = credit;
        this.views = views;
        this.cache = cache;
        this.transactions = transactions;
        this.properties = properties;
    }

    /** The stream of payment {@code paymentId}. */
    public static String streamOf(UUID paymentId) {
        return PaymentContracts.PAYMENT_STREAM + paymentId;
    }

    /** Authorises a new payment with a fresh id; a declined one is created too. Returns it as committed. */
    public PaymentView create(NewPayment payment, EventMetadata metadata) {
        UUID paymentId = UUID.randomUUID();
        authorise(paymentId, payment, false, metadata);
        return views.find(paymentId).orElseThrow(() -> new IllegalStateException("payment " + paymentId + " lost"));
    }

    /**
     * Authorises payment {@code paymentId} unless it exists already, in the caller's transaction or a new one.
     *
     * @param orderCancelled whether the order was cancelled before its payment was requested (declines it)
     * @return the events appended, empty if the payment existed
     */
    public List<DomainEvent> authorise(
            UUID paymentId, NewPayment payment, boolean orderCancelled, EventMetadata metadata) {
        return transactions.execute(status -> {
            CreditPosition position = payment.customerId() == null
                    ? null
                    : new CreditPosition(credit.lockOutstanding(payment.customerId()), properties.creditLimit());
            var command = new AuthorisePayment(
                    paymentId,
                    payment.orderId(),
                    payment.customerId(),
                    payment.amount(),
                    payment.currency(),
                    payment.method(),
                    position,
                    orderCancelled);
            return payments.handle(streamOf(paymentId), command, metadata);
        });
    }

    /**
     * Refunds a captured payment in full. Returns it as committed.
     *
     * @throws PaymentNotFoundException if there is no such payment
     * @throws io.sagaflow.payment.payments.domain.PaymentNotRefundableException if it was declined
     * @throws io.sagaflow.payment.payments.domain.PaymentAlreadyRefundedException if it was refunded before
     */
    public PaymentView refund(UUID paymentId, String reason, EventMetadata metadata) {
        refund(new RefundPayment(paymentId, reason), metadata);
        return views.find(paymentId).orElseThrow(() -> new PaymentNotFoundException(paymentId));
    }

    /** Decides {@code command} in the caller's transaction or a new one, after locking the customer's credit row. */
    public void refund(RefundPayment command, EventMetadata metadata) {
        transactions.executeWithoutResult(status -> {
            // The customer id never changes, so an unlocked read tells which credit row to lock; the decision itself
            // is made on the stream as loaded after the lock.
            customerOf(load(command.paymentId())).ifPresent(credit::lockOutstanding);
            payments.handle(streamOf(command.paymentId()), command, metadata);
        });
    }

    /** The current state of payment {@code paymentId}, from its stream. */
    public PaymentState load(UUID paymentId) {
        return payments.load(streamOf(paymentId)).state();
    }

    /** The payment as committed, through the view cache. */
    public Optional<PaymentView> get(UUID paymentId) {
        return cache.get(paymentId.toString());
    }

    /** The payments of an order, oldest first. */
    public List<PaymentView> byOrder(UUID orderId) {
        return views.findByOrder(orderId);
    }

    private static Optional<UUID> customerOf(PaymentState state) {
        return switch (state) {
            case PaymentState.NotCreated notCreated -> Optional.empty();
            case PaymentState.Initiated initiated ->
                Optional.ofNullable(initiated.payment().customerId());
            case PaymentState.Captured captured ->
                Optional.ofNullable(captured.payment().customerId());
            case PaymentState.Declined declined ->
                Optional.ofNullable(declined.payment().customerId());
            case PaymentState.Refunded refunded ->
                Optional.ofNullable(refunded.payment().customerId());
        };
    }
}
