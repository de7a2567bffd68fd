package io.sagaflow.order.ordering.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.web.ApiException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sheds load at the door (ADR 0023, ADR 0047): refuses new orders — 503 with {@code Retry-After}, nothing changed —
 * while more sagas are open on this member than {@code maxOpenSagas}, or more saga messages wait in its inbox than
 * {@code maxBacklog}. A stack that cannot keep up then stops taking work it cannot finish in time, instead of
 * queueing it — in the saga inbox, in the outbox, on the topic, in a participant's consumer — until the sagas run
 * into their deadline or a service runs out of memory. Orders already placed go on; reads, cancellations and the
 * participants' answers are never refused.
 *
 * <p>Reading the two measures costs a walk over the member's partitions, so a request does not read them: it decides
 * on the last reading and, when that is older than {@code refresh}, hands the next one to a thread of its own, a
 * platform thread, so that under overload it gets a core as the OS gives one rather than queueing behind the
 * requests' virtual threads. Only a reading older than twice that (the first order after a quiet spell) is taken
 * again before deciding, on the request's own thread. No timer runs, and the reader waits on its queue without
 * waking, so an idle service does no walks at all (ADR 0057); the gauges read afresh when scraped after such a spell.
 */
public final class OrderAdmission implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OrderAdmission.class);

    private final Measure backlog;
    private final Measure openSagas;
    private final Counter refused;
    private final long refreshNanos;
    private final LongSupplier nanoClock;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final ExecutorService reader = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("order-admission").daemon().factory());
    private volatile long lastRead;
    private volatile boolean closed;

    /**
     * @param backlog the saga messages waiting on this member
     * @param maxBacklog the most that may wait before new orders are refused; negative to never refuse for it
     * @param openSagas the sagas placed on this member's partitions and not yet ended
     * @param maxOpenSagas the most that may be open before new orders are refused; negative to never refuse for it
     * @param refresh how old a reading may get before a request starts the next one
     */
    public OrderAdmission(
            IntSupplier backlog,
            int maxBacklog,
            IntSupplier openSagas,
            int maxOpenSagas,
            Duration refresh,
            MeterRegistry meters) {
        this(backlog, maxBacklog, openSagas, maxOpenSagas, refresh, meters, System::nanoTime);
    }

    OrderAdmission(
            IntSupplier backlog,
            int maxBacklog,
            IntSupplier openSagas,
            int maxOpenSagas,
            Duration refresh,
            MeterRegistry meters,
            LongSupplier nanoClock) {
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("the admission's refresh must be positive, not " + refresh);
        }
        this.backlog = new Measure(backlog, maxBacklog);
        this.openSagas = new Measure(openSagas, maxOpenSagas);
        this.refreshNanos = refresh.toNanos();
        this.nanoClock = nanoClock;
        this.refused = Counter.builder("sagaflow.order.admission.refused")
                .description("Orders refused because too many sagas were open or too many saga messages waiting")
                .register(meters);
        Gauge.builder("sagaflow.saga.backlog", this, admission -> admission.current(admission.backlog))
                .description("Saga messages waiting in this member's inbox, as last read")
                .register(meters);
        Gauge.builder("sagaflow.saga.open", this, admission -> admission.current(admission.openSagas))
                .description("Sagas placed on this member's partitions and not yet ended, as last read")
                .register(meters);
        this.lastRead = nanoClock.getAsLong() - 2 * refreshNanos; // nothing read yet: the first request reads
    }

    /**
     * Returns if a new order may be placed now.
     *
     * @throws ApiException 503 {@code OPEN_SAGAS} if too many sagas are open, {@code SAGA_BACKLOG} if too many saga
     *     messages are waiting
     */
    public void admit() {
        freshen();
        if (openSagas.exceeded()) {
            throw refuse(
                    "OPEN_SAGAS",
                    "The service has %d sagas under way (at most %d)".formatted(openSagas.current, openSagas.limit));
        }
        if (backlog.exceeded()) {
            throw refuse(
                    "SAGA_BACKLOG",
                    "The service has %d saga messages waiting (at most %d)".formatted(backlog.current, backlog.limit));
        }
    }

    private ApiException refuse(String code, String reason) {
        refused.increment();
        return ApiException.unavailable(code, reason + "; no order was placed, retry after the time in Retry-After");
    }

    /** Reads both measures again before going on if the last reading is stale, in the background if merely old. */
    private void freshen() {
        long age = nanoClock.getAsLong() - lastRead;
        if (age < refreshNanos || closed) {
            return;
        }
        if (age >= 2 * refreshNanos) {
            synchronized (this) {
                if (nanoClock.getAsLong() - lastRead >= 2 * refreshNanos) {
                    refresh();
                }
            }
        } else if (reading.compareAndSet(false, true)) {
            try {
                reader.execute(() -> {
                    try {
                        refresh();
                    } finally {
                        reading.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                reading.set(false); // closed meanwhile
            }
        }
    }

    private int current(Measure measure) {
        freshen();
        return measure.current;
    }

    /** Reads both measures now. */
    void refresh() {
        backlog.read();
        openSagas.read();
        lastRead = nanoClock.getAsLong();
    }

    @Override
    public void close() {
        closed = true;
        reader.shutdownNow();
    }

    /** One measure of the load on this member, its limit and its value as last read. */
    private static final class Measure {

        private final IntSupplier source;
        private final int limit;
        private volatile int current;

        Measure(IntSupplier source, int limit) {
            this.source = source;
            this.limit = limit;
        }

        boolean exceeded() {
            return limit >= 0 && current > limit;
        }

        void read() {
            try {
                current = source.getAsInt();
            } catch (RuntimeException e) {
                // The member is shutting down or not yet up: keep the last value.
                log.debug("could not read a measure of the saga load", e);
            }
        }
    }
}
