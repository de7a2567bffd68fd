package io.sagaflow.framework.web;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tomcat's executor, letting at most {@code limit} of its tasks run at once (ADR 0105). Tomcat hands its executor a
 * task for every connection with bytes to read; on virtual threads each starts at once and builds its request's state — a
 * processor and a Catalina request, about 70 kB — before any filter can refuse it. When a service falls behind,
 * hundreds of these live for seconds, every young collection moves them into the old generation, and the heap is
 * collected whole every few seconds, which puts the service further behind. Here a task past the limit waits, in
 * arrival order, holding nothing but its socket, until a running one ends.
 *
 * <p>A task that parks to wait for something that is not work, a long poll, gives its slot back first
 * ({@link #releaseEarly}); whoever parks it bounds the parked tasks itself.
 */
public final class BoundedHandlers implements Executor {

    private static final ThreadLocal<Slot> SLOT = new ThreadLocal<>();

    private final Executor delegate;
    private final int limit;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final ConcurrentLinkedQueue<Waiting> waiting = new ConcurrentLinkedQueue<>();
    private final Timer queueTime;

    /**
     * @param delegate starts each task, on a thread of its own (Tomcat's virtual thread executor)
     * @param limit tasks running at once at most, at least 1
     */
    public BoundedHandlers(Executor delegate, int limit, MeterRegistry meters) {
        if (limit < 1) {
            throw new IllegalArgumentException("the limit must be at least 1, was " + limit);
        }
        this.delegate = delegate;
        this.limit = limit;
        this.queueTime = Timer.builder("sagaflow.http.handler.queue")
                .description("How long a connection with a request to read waited until its handler ran: for a"
                        + " slot, then for a carrier thread to run the handler's virtual thread on")
                .register(meters);
        Gauge.builder("sagaflow.http.handlers.running", running, AtomicInteger::get)
                .description("Tomcat handlers running, as counted by their bound")
                .register(meters);
        Gauge.builder("sagaflow.http.handlers.queued", queued, AtomicInteger::get)
                .description("Connections with a request to read, waiting for a handler")
                .register(meters);
    }

    /**
     * Gives the current handler's slot back before it parks; harmless on a thread that is not a bounded handler or
     * that gave its slot back already.
     */
    public static void releaseEarly() {
        Slot slot = SLOT.get();
        if (slot != null) {
            slot.release();
        }
    }

    /** Handlers holding a slot now. */
    public int running() {
        return running.get();
    }

    /** Tasks waiting for a slot now. */
    public int queued() {
        return queued.get();
    }

    @Override
    public void execute(Runnable task) {
        waiting.add(new Waiting(task, System.nanoTime()));
        queued.incrementAndGet();
        startWhatFits();
    }

    /**
     * Starts waiting tasks while slots are free. Whoever frees a slot or queues a task calls it, after doing so, so no
     * task is left waiting beside a free slot.
     */
    private void startWhatFits() {
        while (!waiting.isEmpty() && tryTakeSlot()) {
            Waiting next = waiting.poll();
            if (next == null) {
                running.decrementAndGet();
                continue;
            }
            queued.decrementAndGet();
            Slot slot = new Slot();
            try {
                delegate.execute(() -> run(next, slot));
            } catch (RejectedExecutionException e) {
                slot.release();
                throw e;
            }
        }
    }

    private boolean tryTakeSlot() {
        int now;
        do {
            now = running.get();
            if (now >= limit) {
                return false;
            }
        } while (!running.compareAndSet(now, now + 1));
        return true;
    }

    private void run(Waiting waiting, Slot slot) {
        // Timed when the handler runs, not when it got its slot: on a busy box its virtual thread may wait for a
        // carrier thread as long as for a slot, and neither wait is in the server's request latency.
        queueTime.record(System.nanoTime() - waiting.since(), TimeUnit.NANOSECONDS);
        SLOT.set(slot);
        try {
            waiting.task().run();
        } finally {
            SLOT.remove();
            slot.release();
        }
    }

    @Override
    public String toString() {
        return "BoundedHandlers[limit=" + limit + ", running=" + running + ", queued=" + queued + ", " + delegate + "]";
    }

    private record Waiting(Runnable task, long since) {}

    /** One task's slot, given back once. */
    private final class Slot {

        private final AtomicBoolean released = new AtomicBoolean();

        void release() {
            if (released.compareAndSet(false, true)) {
                running.decrementAndGet();
                startWhatFits();
            }
        }
    }
}
