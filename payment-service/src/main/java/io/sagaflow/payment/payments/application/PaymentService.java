package io.sagaflow.payment.payments.application;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.DeciderRepository.Loaded;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.eventstore.IdempotencyKeys;
import io.sagaflow.framework.eventstore.IdempotencyKeys.Claim;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.payment.contracts.PaymentCaptured;
import io.sagaflow.payment.contracts.PaymentContracts;
import io.sagaflow.payment.contracts.PaymentRefunded;
import io.sagaflow.payment.payments.domain.AuthorisePayment;
import io.sagaflow.payment.payments.domain.CreditPosition;
import io.sagaflow.payment.payments.domain.PaymentCommand;
import io.sagaflow.payment.payments.domain.PaymentDecider;
import io.sagaflow.payment.payments.domain.PaymentNotFoundException;
import io.sagaflow.payment.payments.domain.PaymentState;
import io.sagaflow.payment.payments.domain.RefundPayment;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Authorises and refunds payments. Each write runs in one transaction (joining the caller's, e.g. a saga consumer's)
 * that first locks the customer's credit row, then decides on the payment stream and appends; the projections update
 * the views and credit totals in that same transaction. Two payments of one customer are therefore decided one after
 * the other, each on the credit the previous one left, and the credit limit holds under any concurrency. A
 * {@link Batch} decides many payments in one transaction the same way, with one read, one lock and one append for
 * all of them (ADR 0022).
 */
@Service
public class PaymentService {

    private final DeciderRepository<PaymentCommand, PaymentState, DomainEvent> payments;
    private final EventStore events;
    private final PaymentDecider decider = new PaymentDecider();
    private final CustomerCredit credit;
    private final PaymentViews views;
    private final ViewCache<PaymentView> cache;
    private final TransactionTemplate transactions;
    private final PaymentProperties properties;
    private final IdempotencyKeys idempotencyKeys;

    public PaymentService(
            DeciderRepository<PaymentCommand, PaymentState, DomainEvent> payments,
            EventStore events,
            CustomerCredit credit,
            PaymentViews views,
            ViewCache<PaymentView> cache,
            TransactionTemplate transactions,
            PaymentProperties properties,
            IdempotencyKeys idempotencyKeys) {
        this.payments = payments;
        this.events = events;
        this.credit = credit;
        this.views = views;
        this.cache = cache;
        this.transactions = transactions;
        this.properties = properties;
        this.idempotencyKeys = idempotencyKeys;
    }

    /** The stream of payment {@code paymentId}. */
    public static String streamOf(UUID paymentId) {
        return PaymentContracts.PAYMENT_STREAM + paymentId;
    }

    /**
     * Authorises a new payment with a fresh id; a declined one is created too. Returns it as committed.
     *
     * @param idempotencyKey the key of the client's request, claimed first in the payment's transaction; null for none
     * @throws IdempotencyKeyUsedException if a payment was created with the key before; this one is not
     */
    public PaymentView create(NewPayment payment, EventMetadata metadata, IdempotencyKey idempotencyKey) {
        UUID paymentId = TimeOrderedIds.next();
        transactions.executeWithoutResult(status -> {
            if (idempotencyKey != null) {
                idempotencyKeys.claim(List.of(new Claim(idempotencyKey, streamOf(paymentId))));
            }
            authorise(paymentId, payment, false, metadata);
        });
        return views.find(paymentId).orElseThrow(() -> new IllegalStateException("payment " + paymentId + " lost"));
    }

    /** The payment whose stream {@code streamId} is. */
    public static UUID paymentOf(String streamId) {
        return UUID.fromString(streamId.substring(PaymentContracts.PAYMENT_STREAM.length()));
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
            Batch batch =
                    batch(List.of(paymentId), payment.customerId() == null ? List.of() : List.of(payment.customerId()));
            List<DomainEvent> decided = batch.authorise(paymentId, payment, orderCancelled, metadata);
            batch.append();
            return decided;
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
            Batch batch = batch(List.of(command.paymentId()), List.of());
            batch.refund(command, metadata);
            batch.append();
        });
    }

    /**
     * Starts deciding many payments together in the caller's transaction: reads the streams of {@code paymentIds} in
     * one query, then locks the credit rows of {@code customerIds} and of those payments' customers in one statement
     * (lock order: order, customer, payment stream). The customer ids never change, so the unlocked read tells which
     * rows to lock; the decisions are made on the streams as read, and an append that a concurrent writer overtook
     * fails its expected version.
     */
    public Batch batch(Collection<UUID> paymentIds, Collection<UUID> customerIds) {
        Map<String, UUID> streams = new HashMap<>();
        paymentIds.forEach(paymentId -> streams.put(streamOf(paymentId), paymentId));
        Map<UUID, Loaded<PaymentState>> loaded = new HashMap<>();
        Set<UUID> customers = new HashSet<>(customerIds);
        events.readStreams(streams.keySet()).forEach((stream, stored) -> {
            Loaded<PaymentState> payment = DeciderRepository.replay(decider, stored);
            loaded.put(streams.get(stream), payment);
            customerOf(payment.state()).ifPresent(customers::add);
        });
        return new Batch(loaded, new HashMap<>(credit.lockOutstanding(customers)));
    }

    /**
     * Payments being decided in one transaction: each decision on the state and credit the earlier ones left, all
     * appended together by {@link #append}, with whatever else the caller {@link #add}s.
     */
    public final class Batch {

        private final Map<UUID, Loaded<PaymentState>> read;
        private final Map<UUID, BigDecimal> outstanding;
        private final List<StreamAppend> appends = new ArrayList<>();

        private Batch(Map<UUID, Loaded<PaymentState>> read, Map<UUID, BigDecimal> outstanding) {
            this.read = read;
            this.outstanding = outstanding;
        }

        /** The state of a payment read by {@link #batch}, as this batch has decided it. */
        public PaymentState state(UUID paymentId) {
            return payment(paymentId).state();
        }

        /** Authorises payment {@code paymentId} unless it exists already; returns what that decided. */
        public List<DomainEvent> authorise(
                UUID paymentId, NewPayment payment, boolean orderCancelled, EventMetadata metadata) {
            CreditPosition position = payment.customerId() == null
                    ? null
                    : new CreditPosition(outstanding(payment.customerId()), properties.creditLimit());
            return decide(
                    paymentId,
                    new AuthorisePayment(
                            paymentId,
                            payment.orderId(),
                            payment.customerId(),
                            payment.amount(),
                            payment.currency(),
                            payment.method(),
                            position,
                            orderCancelled),
                    metadata);
        }

        /** Refunds a captured payment in full; throws as {@link PaymentService#refund(UUID, String, EventMetadata)}. */
        public List<DomainEvent> refund(RefundPayment command, EventMetadata metadata) {
            return decide(command.paymentId(), command, metadata);
        }

        /** Adds an append of another stream, made with the payments'. */
        public void add(StreamAppend append) {
            appends.add(append);
        }

        /** Appends everything decided, in one statement. */
        public void append() {
            if (!appends.isEmpty()) {
                events.appendAll(appends);
                appends.clear();
            }
        }

        private List<DomainEvent> decide(UUID paymentId, PaymentCommand command, EventMetadata metadata) {
            Loaded<PaymentState> payment = payment(paymentId);
            List<DomainEvent> decided = decider.decide(command, payment.state());
            if (decided.isEmpty()) {
                return decided;
            }
            appends.add(new StreamAppend(
                    streamOf(paymentId), ExpectedVersion.exactly(payment.version()), decided, metadata));
            Loaded<PaymentState> after = payment.then(decider, decided);
            read.put(paymentId, after);
            Optional<UUID> customer = customerOf(after.state());
            for (DomainEvent event : decided) {
                // What the projection will add to the credit row, for the batch's next decision on it.
                switch (event) {
                    case PaymentCaptured captured ->
                        outstanding.merge(captured.customerId(), captured.amount(), BigDecimal::add);
                    case PaymentRefunded refunded ->
                        customer.ifPresent(
                                id -> outstanding.merge(id, refunded.amount().negate(), BigDecimal::add));
                    default -> {
                        // no change to the credit
                    }
                }
            }
            return decided;
        }

        private Loaded<PaymentState> payment(UUID paymentId) {
            Loaded<PaymentState> payment = read.get(paymentId);
            if (payment == null) {
                throw new IllegalArgumentException("payment " + paymentId + " was not read for this batch");
            }
            return payment;
        }

        private BigDecimal outstanding(UUID customerId) {
            BigDecimal total = outstanding.get(customerId);
            if (total == null) {
                throw new IllegalArgumentException("customer " + customerId + " was not locked for this batch");
            }
            return total;
        }
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
