package io.sagaflow.order.fulfilment.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.ConcurrencyConflictException;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.fulfilment.domain.OrderFulfilmentSaga;
import io.sagaflow.order.fulfilment.domain.SagaFact;
import io.sagaflow.order.fulfilment.domain.SagaState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Handles one inbox message of one saga: replays the order's stream into the saga state, asks the saga what the
 * message changes, appends that to the stream with the replayed version as the expected one (PostgreSQL is the
 * commit point), then arms or clears the saga's deadline and removes the message from the inbox. The Jet job calls
 * it for one order at a time; a message handled twice (after a job restart) changes nothing the second time.
 */
public class SagaRunner {

    private static final Logger log = LoggerFactory.getLogger(SagaRunner.class);
    private static final int MAX_CONFLICT_RETRIES = 10;

    private final EventStore events;
    private final TransactionTemplate transactions;
    private final OrderFulfilmentSaga saga;
    private final SagaDeadlines deadlines;
    private final SagaInbox inbox;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Counter compensations;
    private final Counter failures;
    private final ScheduledExecutorService redelivery = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("saga-redelivery").daemon().factory());

    public SagaRunner(
            EventStore events,
            TransactionTemplate transactions,
            OrderFulfilmentSaga saga,
            SagaDeadlines deadlines,
            SagaInbox inbox,
            Clock clock,
            MeterRegistry meters) {
        this.events = events;
        this.transactions = transactions;
        this.saga = saga;
        this.deadlines = deadlines;
        this.inbox = inbox;
        this.clock = clock;
        this.meters = meters;
        this.compensations = Counter.builder("sagaflow.saga.compensations")
                .description("Sagas that turned to compensation")
                .register(meters);
        this.failures = Counter.builder("sagaflow.saga.handling.failures")
                .description("Saga messages that failed repeatedly and were redelivered")
                .register(meters);
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
                followUp(orderId, outcome);
                inbox.remove(messageId, orderId);
                return outcome.after().exists() ? outcome.after().status().name() : "NONE";
            } catch (ConcurrencyConflictException e) {
                if (attempt >= MAX_CONFLICT_RETRIES) {
                    throw e;
                }
                log.debug("saga {} changed while handling {}; replaying", orderId, messageId);
            }
        }
    }

    private Outcome decide(String stream, SagaInboxEntry entry) {
        List<EventEnvelope<Object>> history = events.readStream(stream, 1);
        List<Object> payloads = new ArrayList<>(history.size());
        history.forEach(event -> payloads.add(event.payload()));
        SagaState before = saga.replay(payloads);
        List<DomainEvent> decided = saga.on(before, entry.message(), clock.instant());
        if (decided.isEmpty()) {
            return new Outcome(
                    before,
                    before,
                    decided,
                    history.isEmpty() ? null : history.getFirst().occurredAt());
        }
        events.append(stream, ExpectedVersion.exactly(history.getLast().version()), decided, entry.metadata());
        recordSteps(history, decided);
        SagaState after = before;
        for (DomainEvent event : decided) {
            after = saga.evolve(after, event);
        }
        return new Outcome(before, after, decided, history.getFirst().occurredAt());
    }

    private void followUp(UUID orderId, Outcome outcome) {
        SagaState after = outcome.after();
        if (!after.exists()) {
            return;
        }
        if (after.status().isTerminal() || after.deadline() == null) {
            deadlines.clear(orderId);
        } else {
            // Armed on every message of a running saga: answers may overtake the order's own OrderPlaced (they
            // travel on other streams), and arming is an idempotent write of the same deadline.
            deadlines.arm(orderId, after.deadline());
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

    /** Times each step the decided events complete, from the event that started it. */
    private void recordSteps(List<EventEnvelope<Object>> history, List<DomainEvent> decided) {
        Instant now = clock.instant();
        for (DomainEvent event : decided) {
            switch (event) {
                case SagaFact.StockReservationConfirmed ok ->
                    step("reserve_stock", "completed", history, "OrderPlaced", now);
                case SagaFact.StockReservationRejected no ->
                    step("reserve_stock", "failed", history, "OrderPlaced", now);
                case SagaFact.PaymentCaptureConfirmed ok ->
                    step("charge_payment", "completed", history, "PaymentRequested", now);
                case SagaFact.PaymentRejected no -> step("charge_payment", "failed", history, "PaymentRequested", now);
                case SagaFact.StockReleaseConfirmed ok ->
                    step("release_stock", "completed", history, "StockReleaseRequested", now);
                case SagaFact.RefundConfirmed ok ->
                    step("refund_payment", "completed", history, "RefundRequested", now);
                default -> {
                    // not the end of a step
                }
            }
        }
    }

    private void step(String step, String outcome, List<EventEnvelope<Object>> history, String startedBy, Instant now) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).type().equals(startedBy)) {
                Timer.builder("sagaflow.saga.step")
                        .description("From a saga step's request to its answer")
                        .tag("step", step)
                        .tag("outcome", outcome)
                        .publishPercentileHistogram()
                        .register(meters)
                        .record(Duration.between(history.get(i).occurredAt(), now));
                return;
            }
        }
    }

    private record Outcome(SagaState before, SagaState after, List<DomainEvent> decided, Instant startedAt) {}
}
