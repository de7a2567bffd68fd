package io.sagaflow.framework.web;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * At most one line per {@code every} for each kind of refusal, however many requests meet it (ADR 0102). A database
 * that is away or overloaded has every request refused, and a line for each (hundreds a second under load) would
 * flood the log, and cost the CPU the service is short of, just when someone reads it. Each line written says how many
 * of its kind were left out since the one before; every refusal is counted in {@code http.server.requests} all the
 * same.
 */
final class ThrottledLog {

    private final Consumer<String> sink;
    private final long everyNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();

    ThrottledLog(Consumer<String> sink, Duration every, LongSupplier nanoClock) {
        this.sink = sink;
        this.everyNanos = every.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Writes {@code line} if no line of {@code kind} was written in the last {@code every}; else counts it. The line is
     * built only when it is written: a refusal left out costs no string.
     */
    void write(String kind, Supplier<String> line) {
        Kind k = kinds.computeIfAbsent(kind, name -> new Kind(nanoClock.getAsLong()));
        long now = nanoClock.getAsLong();
        long next = k.nextAt.get();
        if (now - next >= 0 && k.nextAt.compareAndSet(next, now + everyNanos)) {
            long left = k.leftOut.sumThenReset();
            String text = line.get();
            sink.accept(left == 0 ? text : text + " (and " + left + " more like it since the last such line)");
        } else {
            k.leftOut.increment();
        }
    }

    private static final class Kind {
        final AtomicLong nextAt;
        final LongAdder leftOut = new LongAdder();

        Kind(long now) {
            this.nextAt = new AtomicLong(now);
        }
    }
}
