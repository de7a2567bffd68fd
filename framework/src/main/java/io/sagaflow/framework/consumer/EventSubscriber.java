package io.sagaflow.framework.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sagaflow.framework.consumer.ConsumerLanes.Delivery;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventSerializer;
import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import io.sagaflow.framework.eventstore.GlobalPosition;
import io.sagaflow.framework.messaging.Checkpoint;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.PositionedListener;
import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import io.sagaflow.framework.transaction.TransientFailures;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscribes a named consumer to the topics of the publishers whose event types it declared (ADR 0019). Other types
 * on those topics are skipped before they cost a deserialisation or a transaction, but each still costs a delivery:
 * the subscription logs which types it will skip, and contracts split their types so that there are none (ADR 0036).
 *
 * <p>A consumer that keeps {@link Deduplication#RECORDED processed-event records} is fed in batches (ADR 0021): the
 * topic listeners queue each message on one of the consumer's lanes, and a lane handles what has queued up as one
 * transaction through {@link IdempotentConsumer#processBatch}, then checkpoints past it. If the batch fails, each of its
 * messages is handled again on its own, so one poison message cannot hold the others back. A consumer that
 * deduplicates {@link Deduplication#BY_HANDLER by itself} gets each message directly on the listener's thread.
 *
 * <p>A message handled on its own that fails is retried with backoff. A failure that passes by itself (the database
 * cannot be reached, a deadlock; see {@link TransientFailures}) is retried until it passes, the wait capped at
 * {@code maxBackoff}, holding the consumer's lane back meanwhile (ADR 0099). Any other failure gives up after
 * {@code maxAttempts}: the message is logged, counted as failed and kept in {@link DeadLetters}, so that it cannot stall
 * its topic and is not lost either. Each subscription, that is each start of the service, tries the messages its
 * consumer gave up on again, beside the new ones (ADR 0100). Keeping, reading and forgetting those messages is retried
 * through the database's absence like the handling itself, and {@code sagaflow.consumer.dead.letters} counts them (ADR
 * 0101).
 */
public final class EventSubscriber {

    private static final Logger log = LoggerFactory.getLogger(EventSubscriber.class);

    private final ReliableTopicEventBus bus;
    private final JdbcCheckpointStore checkpoints;
    private final IdempotentConsumer idempotent;
    private final DeadLetters deadLetters;
    private final EventSerializer serializer;
    private final MeterRegistry meters;
    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final int lanes;
    private final int batchSize;
    private final TopicAssignment assignment;
    /** The subscriptions running, by consumer: what {@link #redrive()} tries again. */
    private final Map<String, Delivering> running = new ConcurrentHashMap<>();
    /** What the consumers' {@code sagaflow.consumer.dead.letters} gauges read. */
    private final DeadLetterCounts counts;

    /**
     * @param assignment which of a consumer's topics this replica listens to: {@link TopicShares} shares them among
     *     the service's replicas (ADR 0080)
     */
    public EventSubscriber(
            ReliableTopicEventBus bus,
            JdbcCheckpointStore checkpoints,
            IdempotentConsumer idempotent,
            DeadLetters deadLetters,
            EventSerializer serializer,
            MeterRegistry meters,
            int maxAttempts,
            Duration initialBackoff,
            Duration maxBackoff,
            int lanes,
            int batchSize,
            TopicAssignment assignment) {
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff must be at least initialBackoff");
        }
        this.bus = bus;
        this.checkpoints = checkpoints;
        this.idempotent = idempotent;
        this.deadLetters = deadLetters;
        this.serializer = serializer;
        this.meters = meters;
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.lanes = lanes;
        this.batchSize = batchSize;
        this.assignment = assignment;
        this.counts = new DeadLetterCounts(deadLetters);
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
        Set<String> skipped = serializer.registry().skippedBy(eventTypes);
        if (!skipped.isEmpty()) {
            log.info("consumer {} reads the topics of {} and will skip their types {}", consumer, publishers, skipped);
        }
        Delivering delivering = new Delivering(consumer, deduplication, consumed, handler);
        List<String> topicNames = bus.topicNames(publishers);
        if (deduplication == Deduplication.BY_HANDLER) {
            PositionedListener direct = (message, topic, after) -> {
                if (!consumed.contains(message.type()) || delivering.one(message)) {
                    checkpoints.remember(consumer, topic, after);
                }
            };
            Subscription topics = assignment.subscribe(
                    consumer, topicNames, topic -> bus.subscribeTopic(consumer, topic, checkpoints, direct));
            return running(delivering, topics::cancel);
        }
        ConsumerLanes queued = new ConsumerLanes(consumer, lanes, batchSize, delivering::batch);
        PositionedListener laned = (message, topic, after) ->
                queued.enqueue(new Delivery(message, topic, after, consumed.contains(message.type())));
        Subscription topics = assignment.subscribe(
                consumer, topicNames, topic -> bus.subscribeTopic(consumer, topic, checkpoints, laned));
        return running(delivering, () -> {
            topics.cancel();
            queued.stop();
        });
    }

    /**
     * Starts the redrive of a subscription that started, and registers it for {@link #redrive()}; the subscription it
     * returns stops the delivering, then {@code cancel}s the rest.
     */
    private Subscription running(Delivering delivering, Runnable cancel) {
        running.put(delivering.consumer, delivering);
        delivering.redriveInBackground();
        return () -> {
            running.remove(delivering.consumer, delivering);
            delivering.stop();
            cancel.run();
        };
    }

    /**
     * Has every running subscription try the messages its consumer gave up on again, each on a thread of its own, as
     * it did when it started (ADR 0100): once their cause is fixed without a restart, say.
     *
     * @return the consumers that try them
     */
    public Set<String> redrive() {
        Set<String> consumers = new TreeSet<>(running.keySet());
        running.values().forEach(Delivering::redriveInBackground);
        return consumers;
    }

    /** One subscription's handling of its messages, with its meters. */
    private final class Delivering {

        private final String consumer;
        private final Deduplication deduplication;
        /** The types it handles: a dead letter of another (no longer declared) is left alone. */
        private final Set<String> consumed;

        private final EventHandler handler;
        private final Counter handled;
        private final Counter duplicates;
        private final Counter failed;
        private final Counter redriven;
        private final Counter transientRetries;
        private final Counter otherRetries;
        private final Timer lag;
        private final DistributionSummary batchSizes;
        private final Timer batched;
        private final Timer split;
        /** Set when the subscription is cancelled: a message retried then is left for its next delivery. */
        private volatile boolean stopped;
        /** Whether a redrive runs, and whether one was asked for since it last read the letters. */
        private final AtomicBoolean redriving = new AtomicBoolean();

        private volatile boolean redriveAgain;

        Delivering(String consumer, Deduplication deduplication, Set<String> consumed, EventHandler handler) {
            this.consumer = consumer;
            this.deduplication = deduplication;
            this.consumed = consumed;
            this.handler = handler;
            this.handled = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "handled");
            this.duplicates = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "duplicate");
            this.failed = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "failed");
            this.redriven = meters.counter("sagaflow.consumer.events", "consumer", consumer, "outcome", "redriven");
            this.transientRetries =
                    meters.counter("sagaflow.consumer.retries", "consumer", consumer, "failure", "transient");
            this.otherRetries = meters.counter("sagaflow.consumer.retries", "consumer", consumer, "failure", "other");
            this.lag = Timer.builder("sagaflow.consumer.lag")
                    .description("Time from an event's append in its service to its handling by this consumer")
                    .tag("consumer", consumer)
                    .publishPercentileHistogram()
                    .register(meters);
            this.batchSizes = DistributionSummary.builder("sagaflow.consumer.batch.size")
                    .description("Messages a lane's batch gave this consumer to handle (skipped ones not counted)")
                    .tag("consumer", consumer)
                    .publishPercentileHistogram()
                    .maximumExpectedValue(1024.0)
                    .register(meters);
            this.batched = batchTimer(consumer, "batched");
            this.split = batchTimer(consumer, "split");
            Gauge.builder("sagaflow.consumer.dead.letters", counts, counts -> counts.of(consumer))
                    .description("Messages the consumer gave up on, kept to be tried again (ADR 0100); counted at"
                            + " most every " + DeadLetterCounts.MAX_AGE.toSeconds() + " s, off the reading thread")
                    .tag("consumer", consumer)
                    .strongReference(true)
                    .register(meters);
        }

        private Timer batchTimer(String consumer, String outcome) {
            return Timer.builder("sagaflow.consumer.batch")
                    .description("Time to handle a lane's batch: in one transaction (batched), or one message at a"
                            + " time after that failed (split)")
                    .tag("consumer", consumer)
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(meters);
        }

        /**
         * Handles the consumed messages of {@code batch} in one transaction (on their own if that fails), then
         * checkpoints every topic of the batch past its last message, skipped ones included.
         */
        void batch(List<Delivery> batch) {
            List<EventMessage> messages = new ArrayList<>(batch.size());
            for (Delivery delivery : batch) {
                if (delivery.consumed()) {
                    messages.add(delivery.message());
                }
            }
            if (!messages.isEmpty()) {
                long started = System.nanoTime();
                Timer took = handledTogether(messages) ? batched : split;
                took.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                batchSizes.record(messages.size());
            }
            if (stopped) {
                return; // maybe not all handled: no checkpoint past them, they come again
            }
            // A topic's messages come in order, each on the lane of its topic: the last one of a topic is its furthest.
            Map<String, Checkpoint> last = new HashMap<>();
            batch.forEach(delivery -> last.put(delivery.topic(), delivery.after()));
            last.forEach((topic, after) -> checkpoints.remember(consumer, topic, after));
        }

        /** Handles {@code messages} in one transaction, or each on its own if that fails; false if it did. */
        private boolean handledTogether(List<EventMessage> messages) {
            if (messages.size() == 1) {
                one(messages.getFirst());
                return true;
            }
            try {
                List<EventEnvelope<Object>> envelopes = new ArrayList<>(messages.size());
                messages.forEach(message -> envelopes.add(envelope(message)));
                Set<UUID> applied = idempotent.processBatch(consumer, envelopes, handler);
                for (EventEnvelope<Object> envelope : envelopes) {
                    // remove: a repeat of an event within the batch is a duplicate too
                    counted(envelope, applied.remove(envelope.eventId()));
                }
                return true;
            } catch (RuntimeException e) {
                log.debug(
                        "consumer {} failed on a batch of {}; handling each on its own", consumer, messages.size(), e);
                for (EventMessage message : messages) {
                    if (!one(message)) {
                        break;
                    }
                }
                return false;
            }
        }

        /**
         * Handles one message as {@link #attempt} does.
         *
         * @return true once it is done with the message (handled, a duplicate, or given up on and kept); false if the
         *     subscription stopped first, so that nothing checkpoints past it
         */
        boolean one(EventMessage message) {
            return attempt(message) != Handling.STOPPED;
        }

        /**
         * Tries the messages the consumer gave up on before, on a thread of its own, oldest first; forgets each that
         * is handled now. One that fails again is kept again, with its attempts added up. Types the consumer no
         * longer handles are left alone. One redrive runs at a time: asked for while one runs, it runs again after it.
         */
        void redriveInBackground() {
            redriveAgain = true;
            if (redriving.compareAndSet(false, true)) {
                Thread.ofVirtual().name("dead-letters-" + consumer).start(this::redriveWhileAsked);
            }
        }

        private void redriveWhileAsked() {
            do {
                try {
                    while (redriveAgain && !stopped) {
                        redriveAgain = false;
                        redrive();
                    }
                } catch (RuntimeException e) {
                    log.warn("consumer {} could not try the messages it gave up on again", consumer, e);
                } finally {
                    redriving.set(false);
                }
                // asked again between the last check and the release: whoever asked saw a redrive running
            } while (redriveAgain && !stopped && redriving.compareAndSet(false, true));
        }

        private void redrive() {
            List<DeadLetters.DeadLetter> letters = persistently("read the messages it gave up on", () -> {
                List<DeadLetters.DeadLetter> kept = deadLetters.of(consumer);
                counts.counted(consumer, kept.size());
                return kept;
            });
            if (letters == null || letters.isEmpty()) {
                return;
            }
            log.info("consumer {} tries the {} messages it gave up on again", consumer, letters.size());
            for (DeadLetters.DeadLetter letter : letters) {
                if (!consumed.contains(letter.message().type())) {
                    continue;
                }
                String eventId = letter.message().eventId();
                Handling handling = attempt(letter.message());
                if (handling == Handling.STOPPED) {
                    return;
                }
                if (handling == Handling.DONE) {
                    if (persistently("forget event " + eventId + ", handled now", () -> {
                                deadLetters.release(consumer, eventId);
                                return Boolean.TRUE;
                            })
                            == null) {
                        return;
                    }
                    counts.changed();
                    redriven.increment();
                    log.info(
                            "consumer {} handled event {}, which it had given up on after {} attempts",
                            consumer,
                            eventId,
                            letter.attempts());
                }
            }
        }

        /**
         * Runs {@code step} of the consumer's own bookkeeping of its dead letters, again after each failure that
         * passes by itself until it passes, as a message is handled (ADR 0099).
         *
         * @return what it returned, or null if the subscription stopped first
         */
        private <T> T persistently(String what, Supplier<T> step) {
            Duration backoff = initialBackoff;
            boolean failedBefore = false;
            while (!stopped) {
                try {
                    return step.get();
                } catch (RuntimeException e) {
                    if (!TransientFailures.isTransient(e)) {
                        throw e;
                    }
                    transientRetries.increment();
                    if (!failedBefore) {
                        failedBefore = true;
                        log.warn(
                                "consumer {} cannot {} for now, and tries again until it can: {}",
                                consumer,
                                what,
                                e.toString());
                    }
                    sleep(backoff);
                    backoff = min(backoff.multipliedBy(2), maxBackoff);
                }
            }
            return null;
        }

        /**
         * Handles one message, retrying with backoff: a transient failure until it passes, any other up to
         * {@code maxAttempts} times, after which the message is given up on and kept in {@link DeadLetters}.
         */
        private Handling attempt(EventMessage message) {
            Duration backoff = initialBackoff;
            int attempts = 0;
            int transientFailures = 0;
            long firstTransient = 0;
            while (!stopped) {
                try {
                    EventEnvelope<Object> envelope = envelope(message);
                    boolean applied = deduplication == Deduplication.BY_HANDLER
                            ? handle(handler, envelope)
                            : idempotent.process(consumer, envelope.eventId(), () -> handler.handle(envelope));
                    counted(envelope, applied);
                    if (transientFailures > 0) {
                        log.info(
                                "consumer {} handled event {} after {} transient failures in {} ms",
                                consumer,
                                message.eventId(),
                                transientFailures,
                                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - firstTransient));
                    }
                    return Handling.DONE;
                } catch (RuntimeException e) {
                    if (TransientFailures.isTransient(e)) {
                        transientRetries.increment();
                        if (transientFailures++ == 0) {
                            firstTransient = System.nanoTime();
                            log.warn(
                                    "consumer {} cannot handle event {} for now, and retries it until it can: {}",
                                    consumer,
                                    message.eventId(),
                                    e.toString());
                        } else {
                            log.debug("consumer {} failed on event {} again", consumer, message.eventId(), e);
                        }
                        sleep(backoff);
                        backoff = min(backoff.multipliedBy(2), maxBackoff);
                        continue;
                    }
                    if (++attempts >= maxAttempts) {
                        failed.increment();
                        log.error(
                                "consumer {} gave up on event {} ({} of {}) after {} attempts, and keeps it to try at"
                                        + " its next start",
                                consumer,
                                message.eventId(),
                                message.type(),
                                message.streamId(),
                                attempts,
                                e);
                        return park(message, e, attempts);
                    }
                    otherRetries.increment();
                    log.warn("consumer {} failed on event {}, attempt {}", consumer, message.eventId(), attempts, e);
                    sleep(backoff);
                    backoff = backoff.multipliedBy(2);
                }
            }
            return Handling.STOPPED;
        }

        /**
         * Keeps {@code message} in {@link DeadLetters}, trying again while the database is away: a message given up on
         * is checkpointed past only once it is kept.
         */
        private Handling park(EventMessage message, RuntimeException failure, int attempts) {
            try {
                if (persistently("keep event " + message.eventId(), () -> {
                            deadLetters.park(consumer, message, failure, attempts);
                            return Boolean.TRUE;
                        })
                        == null) {
                    return Handling.STOPPED;
                }
                counts.changed();
            } catch (RuntimeException e) {
                log.error("consumer {} could not keep event {}, which it gave up on", consumer, message.eventId(), e);
            }
            return Handling.GAVE_UP;
        }

        void stop() {
            stopped = true;
        }

        private void counted(EventEnvelope<Object> envelope, boolean applied) {
            (applied ? handled : duplicates).increment();
            if (applied) {
                lag.record(Duration.between(envelope.occurredAt(), Instant.now()));
            }
        }
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

    /** What became of a message: handled (or a duplicate), given up on and kept, or left as the subscription stopped. */
    private enum Handling {
        DONE,
        GAVE_UP,
        STOPPED
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
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
