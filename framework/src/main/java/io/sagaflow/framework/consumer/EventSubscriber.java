package io.sagaflow.framework.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscribes a named consumer to the topics of the publishers whose event types it declared (ADR 0019): each message
 * of a declared type is deserialised (and upcast), then handled through the {@link IdempotentConsumer}, or, for a
 * consumer that deduplicates {@link Deduplication#BY_HANDLER by itself}, handed to its handler directly. A failing
 * handler is retried with backoff; after {@code maxAttempts} the message is logged and counted as failed so one
 * poison message cannot stall its topic. The publishers' other types are skipped before they cost a deserialisation
 * or a transaction.
 */
public final class EventSubscriber {

    private static final Logger log = LoggerFactory.getLogger(EventSubscriber.class);

    private final ReliableTopicEventBus bus;
    private final JdbcCheckpointStore checkpoints;
    private final IdempotentConsumer idempotent;
    private final EventSerializer serializer;
    private final MeterRegistry meters;
    private final int maxAttempts;
    private final Duration initialBackoff;

    public EventSubscriber(
            ReliableTopicEventBus bus,
            JdbcCheckpointStore checkpoints,
            IdempotentConsumer idempotent,
            EventSerializer serializer,
            MeterRegistry meters,
            int maxAttempts,
            Duration initialBackoff) {
        this.bus = bus;
        this.checkpoints = checkpoints;
        this.idempotent = idempotent;
        this.serializer = serializer;
        this.meters = meters;
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
    }

    /**
     * Starts delivering events of {@code eventTypes} (published payload classes registered with the service's
     * {@code EventTypeRegistry}) to {@code handler} as consumer {@code consumer}, each at most once through a
     * processed-event record ({@link Deduplication#RECORDED}).
     */
    public Subscription subscribe(String consumer, Set<Class<?>> eventTypes, EventHandler handler) {
        return subscribe(consumer, eventTypes, Deduplication.RECORDED, handler);
    }

    /** As {@link #subscribe(String, Set, EventHandler)}, deduplicating as {@code deduplication} says. */
    public Subscription subscribe(
            String consumer, Set<Class<?>> eventTypes, Deduplication deduplication, EventHandler handler) {
        if (eventTypes.isEmpty()) {
            throw new IllegalArgumentException("consumer " + consumer + " declares no event types");
        }
        Set<EventType> types =
                eventTypes.stream().map(serializer.registry()::typeOf).collect(Collectors.toUnmodifiableSet());
        types.stream().filter(type -> !type.published()).findAny().ifPresent(type -> {
            throw new IllegalArgumentException(
                    "consumer " + consumer + " declares " + type.name() + ", which is never published");
        });
        Set<String> consumed = types.stream().map(EventType::name).collect(Collectors.toUnmodifiableSet());
        Set<String> publishers = types.stream().map(EventType::publisher).collect(Collectors.toUnmodifiableSet());
        Counter handled = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "handled");
        Counter duplicates = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "duplicate");
        Counter failed = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "failed");
        Timer lag = Timer.builder("sagaflow.consumer.lag")
                .description("Time from an event's append in its service to its handling by this consumer")
                .tag("consumer", consumer)
                .publishPercentileHistogram()
                .register(meters);
        return bus.subscribe(consumer, publishers, checkpoints, message -> {
            if (!consumed.contains(message.type())) {
                return;
            }
            Duration backoff = initialBackoff;
            for (int attempt = 1; ; attempt++) {
                try {
                    EventEnvelope<Object> envelope = envelope(message);
                    boolean applied = deduplication == Deduplication.BY_HANDLER
                            ? handle(handler, envelope)
                            : idempotent.process(consumer, envelope.eventId(), () -> handler.handle(envelope));
                    (applied ? handled : duplicates).increment();
                    if (applied) {
                        lag.record(Duration.between(envelope.occurredAt(), Instant.now()));
                    }
                    return;
                } catch (RuntimeException e) {
                    if (attempt >= maxAttempts) {
                        failed.increment();
                        log.error(
                                "consumer {} gave up on event {} ({} of {}) after {} attempts",
                                consumer,
                                message.eventId(),
                                message.type(),
                                message.streamId(),
                                attempt,
                                e);
                        return;
                    }
                    log.warn("consumer {} failed on event {}, attempt {}", consumer, message.eventId(), attempt, e);
                    sleep(backoff);
                    backoff = backoff.multipliedBy(2);
                }
            }
        });
    }

    /** Writes the consumers' topic positions; called periodically and at shutdown. */
    public void flushCheckpoints() {
        checkpoints.flush();
    }

    private static boolean handle(EventHandler handler, EventEnvelope<Object> envelope) {
        handler.handle(envelope);
        return true;
    }

    private EventEnvelope<Object> envelope(EventMessage message) {
        return new EventEnvelope<>(
                UUID.fromString(message.eventId()),
                message.streamId(),
                message.version(),
                GlobalPosition.START,
                message.type(),
                message.schemaVersion(),
                Instant.EPOCH.plus(message.occurredAtMicros(), ChronoUnit.MICROS),
                message.correlationId(),
                message.causationId(),
                message.traceparent(),
                message.tracestate(),
                serializer.deserialize(message.type(), message.schemaVersion(), message.payload()));
    }

    private static void sleep(Duration backoff) {
        try {
            Thread.sleep(backoff);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
