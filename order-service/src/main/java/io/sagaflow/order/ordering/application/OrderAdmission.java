package io.sagaflow.order.ordering.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.web.ApiException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sheds load at the door (ADR 0023): refuses new orders — 503 with {@code Retry-After}, nothing changed — while more
 * saga messages wait on this member than {@code maxBacklog}. A stack that cannot keep up then stops taking work it
 * cannot hold, instead of queueing it in the saga inbox, in the heap, until the service runs out of memory. Orders
 * already placed go on; reads, cancellations and the participants' answers are never refused.
 *
 * <p>The backlog is read every {@code refresh} on one daemon thread, not per request: reading it costs a walk over
 * the member's partitions.
 */
public final class OrderAdmission implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OrderAdmission.class);

    private final IntSupplier backlog;
    private final int maxBacklog;
    private final Counter refused;
    private final ScheduledExecutorService refresher;
    private volatile int current;

    /**
     * @param backlog the saga messages waiting on this member
     * @param maxBacklog the most that may wait before new orders are refused; negative to never refuse
     */
    public OrderAdmission(IntSupplier backlog, int maxBacklog, Duration refresh, MeterRegistry meters) {
        this.backlog = backlog;
        this.maxBacklog = maxBacklog;
        this.refused = Counter.builder("sagaflow.order.admission.refused")
                .description("Orders refused because too many saga messages were waiting")
                .register(meters);
        Gauge.builder("sagaflow.saga.backlog", this, admission -> admission.current)
                .description("Saga messages waiting in this member's inbox, as last read")
                .register(meters);
        this.refresher = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("order-admission").daemon().factory());
        refresher.scheduleWithFixedDelay(this::refresh, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Returns if a new order may be placed now.
     *
     * @throws ApiException 503 {@code SAGA_BACKLOG} if too many saga messages are waiting
     */
    public void admit() {
        int waiting = current;
        if (maxBacklog >= 0 && waiting > maxBacklog) {
            refused.increment();
            throw ApiException.unavailable(
                    "SAGA_BACKLOG",
                    "The service has %d saga messages waiting (at most %d); no order was placed, retry after the time"
                                    .formatted(waiting, maxBacklog)
                            + " in Retry-After");
        }
    }

    /** Reads the backlog now (the scheduled thread does so every {@code refresh}). */
    void refresh() {
        try {
            current = backlog.getAsInt();
        } catch (RuntimeException e) {
            // The member is shutting down or not yet up: keep the last value.
            log.debug("could not read the saga backlog", e);
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
