package io.sagaflow.order.fulfilment.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.ConcurrencyConflictException;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.PaymentRequested;
import io.sagaflow.order.contracts.RefundRequested;
import io.sagaflow.order.contracts.StockReleaseRequested;
import io.sagaflow.order.fulfilment.domain.OrderFulfilmentSaga;
import io.sagaflow.order.fulfilment.domain.SagaFact;
import io.sagaflow.order.fulfilment.domain.SagaState;
import io.sagaflow.order.fulfilment.domain.SagaStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Handles inbox messages of sagas: replays the order's stream into the saga state, asks the saga what the message
 * changes, appends that to the stream with the replayed version as the expected one (PostgreSQL is the commit point),
 * then arms or clears the saga's deadline and removes the message from the inbox. The Jet job hands it the messages
 * that queued up, a batch at a time, with one order's messages always in the same processor and in order
 * ({@link #handleBatch}); a message handled twice (after a job restart) changes nothing the second time.
 *
 * <p>The runner keeps what it last committed of each running saga's stream ({@link #KNOWN_SAGAS} of them at most) and
 * decides the saga's next message on it without reading the stream (ADR 0027, 0029). What it keeps is always a
 * committed prefix of the stream (taken out while a transaction uses it, put back only once that transaction, or the
 * caller's it joined, has committed), but another replica may have appended after it. So every decision made on a
 * kept prefix is checked: an append by its expected version, a decision to append nothing by a read of what came
 * after the prefix. A stale prefix costs a conflict and a full read, never a wrong decision.
 *
 * <p>A saga it kept nothing of is looked up in {@link EndedSagas} before its stream is read: one that ended for good
 * decides nothing whatever comes, so a message delivered again after its saga ended (a replayed topic, ADR 0093) is
 * decided on that status alone (ADR 0094).
 */
public class SagaRunner {

    private static final Logger log = LoggerFactory.getLogger(SagaRunner.class);
    private static final int MAX_CONFLICT_RETRIES = 10;

    /** How many running sagas' stream prefixes the runner keeps; about 2 KB each. */
    static final int KNOWN_SAGAS = 2048;

    private final EventStore events;
    private final TransactionTemplate transactions;
    private final OrderFulfilmentSaga saga;
    private final SagaDeadlines deadlines;
    private final SagaInbox inbox;
    private final EndedSagas ended;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Counter compensations;
    private final Counter failures;
    private final Counter endedUnread;
    private final DistributionSummary batchSizes;
    /** Committed prefixes of running sagas' streams, by stream, least recently used first. */
    private final Map<String, History> known = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, History> eldest) {
            return size() > KNOWN_SAGAS;
        }
    });

    private final ScheduledExecutorService redelivery = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("saga-redelivery").daemon().factory());

    public SagaRunner(
            EventStore events,
            TransactionTemplate transactions,
            OrderFulfilmentSaga saga,
            SagaDeadlines deadlines,
            SagaInbox inbox,
            EndedSagas ended,
            Clock clock,
            MeterRegistry meters) {
        this.events = events;
        this.transactions = transactions;
        this.saga = saga;
        this.deadlines = deadlines;
        this.inbox = inbox;
        this.ended = ended;
        this.clock = clock;
        this.meters = meters;
        this.compensations = Counter.builder("sagaflow.saga.compensations")
                .description("Sagas that turned to compensation")
                .register(meters);
        this.failures = Counter.builder("sagaflow.saga.handling.failures")
                .description("Saga messages that failed repeatedly and were redelivered")
                .register(meters);
        this.endedUnread = Counter.builder("sagaflow.saga.ended.unread")
                .description(
                        "Sagas whose message was decided on their view's final status, without reading their stream")
                .register(meters);
        this.batchSizes = DistributionSummary.builder("sagaflow.saga.batch.size")
                .description("Inbox messages handed to the runner at once, to handle in one transaction")
                .publishPercentileHistogram()
                .maximumExpectedValue(1024.0)
                .register(meters);
    }

    /** An inbox message and the id it is stored under. */
    public record Delivery(String messageId, SagaInboxEntry entry) {}

    /**
     * Handles {@code batch} in one transaction: one read of the streams the runner kept nothing of, then each message
     * in order, a later message of an order deciding on the state its earlier ones left (ADR 0021). If anything in it
     * fails (a conflict with a replica, a broken message), nothing of it commits and each message is handled on its
     * own, with {@link #handleSafely}'s retries. Never throws.
     *
     * @return the saga's status after each message, in the batch's order
     */
    public List<String> handleBatch(List<Delivery> batch) {
        batchSizes.record(batch.size());
        if (batch.size() == 1) {
            return List.of(
                    handleSafely(batch.getFirst().messageId(), batch.getFirst().entry()));
        }
        List<Outcome> outcomes;
        try {
            outcomes = transactions.execute(status -> decideAll(batch));
        } catch (RuntimeException e) {
            // The batch's prefixes are out of the map (histories() took them), so the retries read whole streams.
            log.debug("a saga batch of {} failed; handling each message on its own", batch.size(), e);
            return batch.stream()
                    .map(delivery -> handleSafely(delivery.messageId(), delivery.entry()))
                    .toList();
        }
        Map<UUID, Outcome> lastOfOrder = new LinkedHashMap<>();
        List<String> statuses = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Outcome outcome = outcomes.get(i);
            UUID orderId = batch.get(i).entry().message().orderId();
            measure(outcome);
            lastOfOrder.put(orderId, outcome);
            statuses.add(statusOf(outcome));
        }
        try {
            // Hazelcast operations of the whole batch in flight together: one wait, not two per message.
            moveDeadlines(lastOfOrder);
            Map<String, UUID> handled = new LinkedHashMap<>();
            batch.forEach(delivery ->
                    handled.put(delivery.messageId(), delivery.entry().message().orderId()));
            inbox.removeAll(handled);
        } catch (RuntimeException e) {
            // The decisions are committed; handling each message again decides nothing new and redoes the rest.
            log.warn("the deadlines or inbox of a saga batch of {} could not be updated; retrying", batch.size(), e);
            return batch.stream()
                    .map(delivery -> handleSafely(delivery.messageId(), delivery.entry()))
                    .toList();
        }
        return statuses;
    }

    /**
     * Handles {@code entry} and never throws (a thrown exception would fail the Jet job): a message that still fails
     * after a few tries goes back into the inbox under a new id, to be tried again a little later. If this member
     * dies first, the saga's deadline still ends the saga.
     */
    public String handleSafely(String messageId, SagaInboxEntry entry) {
        long backoffMillis = 50;
        for (int attempt = 1; ; attempt++) {
            try {
                return handle(messageId, entry);
            } catch (RuntimeException e) {
                if (attempt >= 4) {
                    failures.increment();
                    log.error(
                            "saga {} could not handle {}; redelivering it",
                            entry.message().orderId(),
                            messageId,
                            e);
                    redeliver(messageId, entry);
                    return "FAILED";
                }
                sleep(backoffMillis);
                backoffMillis *= 4;
            }
        }
    }

    private void redeliver(String messageId, SagaInboxEntry entry) {
        UUID orderId = entry.message().orderId();
        redelivery.schedule(
                () -> {
                    inbox.add(messageId + "+", orderId, entry);
                    inbox.remove(messageId, orderId);
                },
                2,
                TimeUnit.SECONDS);
    }

    /**
     * Keeps the stream of a saga whose order this replica just placed and committed: its {@code OrderPlaced}, version
     * 1. The saga's first message, inventory's answer, then finds it here without a read if this replica's job handles
     * it (ADR 0033); if another replica's does, the entry ages out unused.
     */
    public void placed(EventEnvelope<?> placed) {
        if (placed.version() != 1) {
            return;
        }
        History history = new History();
        history.add(placed.payload(), placed.occurredAt());
        // Only if absent: the runner may already hold more of the stream (an answer that came very fast).
        known.putIfAbsent(placed.streamId(), history);
    }

    /** Stops redelivering (on shutdown). */
    public void close() {
        redelivery.shutdownNow();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Handles {@code entry}, stored in the inbox under {@code messageId}; returns the saga's status after it. */
    public String handle(String messageId, SagaInboxEntry entry) {
        UUID orderId = entry.message().orderId();
        String stream = OrderContracts.ORDER_STREAM + orderId;
        for (int attempt = 1; ; attempt++) {
            try {
                Outcome outcome = transactions.execute(status -> decide(stream, entry));
                measure(outcome);
                moveDeadlines(Map.of(orderId, outcome));
                inbox.remove(messageId, orderId);
                return statusOf(outcome);
            } catch (ConcurrencyConflictException e) {
                if (attempt >= MAX_CONFLICT_RETRIES) {
                    throw e;
                }
                log.debug("saga {} changed while handling {}; replaying", orderId, messageId);
            }
        }
    }

    /** Decides {@code entry} on its saga's stream and appends what it decides, in the caller's transaction. */
    private Outcome decide(String stream, SagaInboxEntry entry) {
        Set<String> unread = new HashSet<>();
        History history = histories(List.of(stream), unread).get(stream);
        List<StreamAppend> appends = new ArrayList<>(1);
        Outcome outcome = decide(stream, history, entry, appends);
        confirmUnread(Map.of(stream, history), unread, appends);
        if (!appends.isEmpty()) {
            events.appendAll(appends);
        }
        rememberAfterCommit(List.of(outcome));
        return outcome;
    }

    /**
     * Decides every message of {@code batch}, in order, in the caller's transaction, then appends what they decided
     * to all their streams in one statement (ADR 0022); one outcome per message.
     */
    private List<Outcome> decideAll(List<Delivery> batch) {
        Set<String> streams = new LinkedHashSet<>();
        batch.forEach(delivery -> streams.add(streamOf(delivery.entry())));
        Set<String> unread = new HashSet<>();
        Map<String, History> histories = histories(streams, unread);
        List<StreamAppend> appends = new ArrayList<>(batch.size());
        List<Outcome> outcomes = new ArrayList<>(batch.size());
        for (Delivery delivery : batch) {
            // The history grows with what earlier messages of the batch decided for it.
            String stream = streamOf(delivery.entry());
            outcomes.add(decide(stream, histories.get(stream), delivery.entry(), appends));
        }
        confirmUnread(histories, unread, appends);
        if (!appends.isEmpty()) {
            events.appendAll(appends);
        }
        rememberAfterCommit(outcomes);
        return outcomes;
    }

    /**
     * The history of each of {@code streams}: the prefix the runner kept, taken out of {@link #known} while the
     * caller's transaction uses it; else, for a saga that ended for good, that ending alone; else the whole stream as
     * stored. A kept prefix is not read again (its stream goes into {@code unread}): it is the whole stream unless
     * another replica appended to it since, and {@link #confirmUnread} makes sure the decisions made on it did not miss
     * that. An ending is never stale: nothing follows it.
     */
    private Map<String, History> histories(Collection<String> streams, Set<String> unread) {
        Map<String, History> histories = new HashMap<>();
        Map<String, Long> whole = new LinkedHashMap<>();
        for (String stream : streams) {
            History history = known.remove(stream);
            if (history == null) {
                history = new History();
                whole.put(stream, 0L);
            } else {
                unread.add(stream);
            }
            histories.put(stream, history);
        }
        if (!whole.isEmpty()) {
            Map<UUID, String> unknown = new HashMap<>();
            whole.keySet().forEach(stream -> unknown.put(orderIdOf(stream), stream));
            Map<UUID, SagaStatus> endings = ended.among(unknown.keySet());
            endings.forEach((orderId, status) -> {
                String stream = unknown.get(orderId);
                histories.get(stream).ended = SagaState.ended(orderId, status);
                whole.remove(stream);
            });
            endedUnread.increment(endings.size());
        }
        if (!whole.isEmpty()) {
            events.readStreamsAfter(whole).forEach((stream, read) -> {
                History history = histories.get(stream);
                read.forEach(event -> history.add(event.payload(), event.occurredAt()));
            });
        }
        return histories;
    }

    /**
     * Makes sure that what was decided on the {@code unread} streams' kept prefixes was decided on the whole stream. An
     * append checks that itself: it expects the prefix's version, so it fails if the stream has moved on. A stream
     * that gets no append is read after its prefix instead, since a stale prefix might have decided to do nothing
     * about a message that the whole stream would act on (ADR 0029).
     *
     * @throws ConcurrencyConflictException if such a stream has moved on: the caller decides again on the whole stream
     */
    private void confirmUnread(Map<String, History> histories, Set<String> unread, List<StreamAppend> appends) {
        if (unread.isEmpty()) {
            return;
        }
        Map<String, Long> after = new LinkedHashMap<>();
        Set<String> appended = new HashSet<>();
        appends.forEach(append -> appended.add(append.streamId()));
        for (String stream : unread) {
            if (!appended.contains(stream)) {
                after.put(stream, histories.get(stream).version);
            }
        }
        if (after.isEmpty()) {
            return;
        }
        events.readStreamsAfter(after).forEach((stream, read) -> {
            if (!read.isEmpty()) {
                long version = after.get(stream);
                throw new ConcurrencyConflictException(stream, version, version + read.size());
            }
        });
    }

    /**
     * Keeps the histories {@code outcomes} left once the current transaction commits, which may be a caller's that
     * this one joined: before that they are not a committed prefix.
     */
    private void rememberAfterCommit(List<Outcome> outcomes) {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                outcomes.forEach(SagaRunner.this::remember);
            }
        });
    }

    /** Keeps the committed history {@code outcome} left, for the saga's next message, while the saga runs. */
    private void remember(Outcome outcome) {
        if (outcome.after().exists() && !outcome.after().status().isTerminal()) {
            known.put(outcome.stream(), outcome.history());
        } else {
            known.remove(outcome.stream());
        }
    }

    private static String streamOf(SagaInboxEntry entry) {
        return OrderContracts.ORDER_STREAM + entry.message().orderId();
    }

    private static UUID orderIdOf(String stream) {
        return UUID.fromString(stream.substring(OrderContracts.ORDER_STREAM.length()));
    }

    /**
     * Decides {@code entry} on {@code history}, adds what it decides to {@code appends} (expecting the version the
     * history has reached) and to {@code history}.
     */
    private Outcome decide(String stream, History history, SagaInboxEntry entry, List<StreamAppend> appends) {
        SagaState before = history.ended != null ? history.ended : saga.replay(history.payloads);
        Instant now = clock.instant();
        List<DomainEvent> decided = saga.on(before, entry.message(), now);
        if (decided.isEmpty()) {
            return new Outcome(stream, history, before, before, decided, history.startedAt());
        }
        appends.add(new StreamAppend(stream, ExpectedVersion.exactly(history.version), decided, entry.metadata()));
        recordSteps(history, decided, now);
        SagaState after = before;
        for (DomainEvent event : decided) {
            history.add(event, now);
            after = saga.evolve(after, event);
        }
        return new Outcome(stream, history, before, after, decided, history.startedAt());
    }

    private static String statusOf(Outcome outcome) {
        return outcome.after().exists() ? outcome.after().status().name() : "NONE";
    }

    /** Arms or clears each saga's deadline as its last outcome left it. */
    private void moveDeadlines(Map<UUID, Outcome> lastOfOrder) {
        Map<UUID, Instant> armed = new LinkedHashMap<>();
        List<UUID> cleared = new ArrayList<>();
        lastOfOrder.forEach((orderId, outcome) -> {
            SagaState after = outcome.after();
            if (!after.exists()) {
                return;
            }
            if (after.status().isTerminal() || after.deadline() == null) {
                cleared.add(orderId);
            } else {
                // The placement armed it (ADR 0033); armed again on every message of a running saga, an idempotent
                // write of the same deadline, so that a timer lost with the order cluster (ADR 0008) comes back.
                armed.put(orderId, after.deadline());
            }
        });
        deadlines.moveAll(armed, cleared);
    }

    /** Counts a compensation and times a saga that ended. */
    private void measure(Outcome outcome) {
        SagaState after = outcome.after();
        if (!after.exists()) {
            return;
        }
        if (outcome.decided().stream().anyMatch(SagaFact.CompensationStarted.class::isInstance)) {
            compensations.increment();
        }
        if (after.status().isTerminal() && !outcome.before().status().isTerminal() && outcome.startedAt() != null) {
            Timer.builder("sagaflow.saga.duration")
                    .description("From order placed to confirmed, cancelled or quarantined")
                    .tag("outcome", after.status().name().toLowerCase(java.util.Locale.ROOT))
                    .publishPercentileHistogram()
                    .register(meters)
                    .record(Duration.between(outcome.startedAt(), Instant.now(clock)));
        }
    }

    /**
     * Times each step the decided events complete, from the event that started it. Since ADR 0055 payment charges on
     * inventory's reservation and the saga hears of both with payment's answer: that is one step from the placement,
     * {@code reserve_and_charge}. A saga that asked payment itself (its inbox written before ADR 0055) times the two.
     */
    private void recordSteps(History history, List<DomainEvent> decided, Instant now) {
        boolean asked = decided.stream().anyMatch(PaymentRequested.class::isInstance)
                || history.payloads.stream().anyMatch(PaymentRequested.class::isInstance);
        for (DomainEvent event : decided) {
            switch (event) {
                case SagaFact.StockReservationConfirmed ok
                when asked -> step("reserve_stock", "completed", history, OrderPlaced.class, now);
                case SagaFact.StockReservationRejected no ->
                    step("reserve_stock", "failed", history, OrderPlaced.class, now);
                case SagaFact.PaymentCaptureConfirmed ok
                when asked -> step("charge_payment", "completed", history, PaymentRequested.class, now);
                case SagaFact.PaymentCaptureConfirmed ok ->
                    step("reserve_and_charge", "completed", history, OrderPlaced.class, now);
                case SagaFact.PaymentRejected no
                when asked -> step("charge_payment", "failed", history, PaymentRequested.class, now);
                case SagaFact.PaymentRejected no ->
                    step("reserve_and_charge", "failed", history, OrderPlaced.class, now);
                case SagaFact.StockReleaseConfirmed ok ->
                    step("release_stock", "completed", history, StockReleaseRequested.class, now);
                case SagaFact.RefundConfirmed ok ->
                    step("refund_payment", "completed", history, RefundRequested.class, now);
                default -> {
                    // not the end of a step
                }
            }
        }
    }

    private void step(String step, String outcome, History history, Class<?> startedBy, Instant now) {
        for (int i = history.payloads.size() - 1; i >= 0; i--) {
            if (startedBy.isInstance(history.payloads.get(i))) {
                Timer.builder("sagaflow.saga.step")
                        .description("From a saga step's request to its answer")
                        .tag("step", step)
                        .tag("outcome", outcome)
                        .publishPercentileHistogram()
                        .register(meters)
                        .record(Duration.between(history.times.get(i), now));
                return;
            }
        }
    }

    /**
     * What the runner knows of one saga's stream: its events (stored, and decided in this transaction) with when
     * each happened, and the version they bring the stream to; or, for a saga that ended for good, only that ending
     * ({@link #ended}, with no events).
     */
    private static final class History {
        final List<Object> payloads = new ArrayList<>();
        final List<Instant> times = new ArrayList<>();
        long version;
        SagaState ended;

        void add(Object payload, Instant at) {
            payloads.add(payload);
            times.add(at);
            version++;
        }

        Instant startedAt() {
            return times.isEmpty() ? null : times.getFirst();
        }
    }

    private record Outcome(
            String stream,
            History history,
            SagaState before,
            SagaState after,
            List<DomainEvent> decided,
            Instant startedAt) {}
}
