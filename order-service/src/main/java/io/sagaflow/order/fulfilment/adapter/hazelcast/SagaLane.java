package io.sagaflow.order.fulfilment.adapter.hazelcast;

import io.sagaflow.framework.messaging.Linger;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The thread one saga processor of the {@link SagaJob} hands its batches to (ADR 0034). A batch blocks on PostgreSQL
 * for its whole transaction, so it must not run on a cooperative Jet thread; and a non-cooperative Jet processor owns a
 * Jet thread that never blocks when it has nothing to do, but wakes every few milliseconds to look for work. A lane's
 * thread waits on its queue instead, and costs nothing while no saga message comes.
 *
 * <p>The processor keeps up to two batches in flight (Jet's limit for {@code mapUsingServiceAsyncBatched}): while the
 * lane handles one, the next one queues. The lane then takes what queued, up to {@code mostMessages}, and hands it to
 * the runner as one batch, one transaction. With a linger, a busy lane also waits that long for the processor's next
 * batch when it holds only one, so that two messages a few milliseconds apart share a transaction (ADR 0044).
 *
 * <p>Batches run one after the other, in the order the processor submitted them, and a merged batch keeps that order:
 * an order's messages all reach the same processor, so they are still handled one at a time and in order.
 */
public final class SagaLane implements AutoCloseable {

    /** How long closing waits for the batch in hand, so a restarted job never handles an order beside it. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

    /** A batch the processor submitted, and where its statuses go. */
    private record Submitted(List<SagaRunner.Delivery> batch, CompletableFuture<List<Object>> statuses) {}

    /** Queued by {@link #close}: the lane's thread ends when it reaches it, after every batch submitted before. */
    private static final Submitted CLOSED = new Submitted(List.of(), new CompletableFuture<>());

    private final SagaRunner runner;
    private final int mostMessages;
    private final Linger linger;
    private final BlockingQueue<Submitted> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private boolean open = true;

    /**
     * @param mostMessages the most messages the lane merges into one batch; a single submitted batch larger than that
     *     still runs whole
     * @param linger how long the lane, while busy ({@link Linger}), waits for a second batch when it holds one with
     *     fewer than {@code mostMessages}; zero handles it at once
     */
    SagaLane(SagaRunner runner, String name, int mostMessages, Duration linger) {
        if (mostMessages < 1) {
            throw new IllegalArgumentException("a lane must take at least one message at once: " + mostMessages);
        }
        this.runner = runner;
        this.mostMessages = mostMessages;
        this.linger = Linger.of(linger);
        this.thread = Thread.ofPlatform().name(name).daemon().start(this::run);
    }

    /** Handles {@code batch} on the lane's thread after the batches submitted before it. */
    CompletableFuture<List<Object>> handle(List<SagaRunner.Delivery> batch) {
        CompletableFuture<List<Object>> statuses = new CompletableFuture<>();
        synchronized (queue) {
            if (open) {
                queue.add(new Submitted(List.copyOf(batch), statuses));
                return statuses;
            }
        }
        statuses.completeExceptionally(new IllegalStateException("saga lane " + thread.getName() + " is closed"));
        return statuses;
    }

    private void run() {
        List<Submitted> round = new ArrayList<>();
        try {
            for (Submitted first; (first = queue.take()) != CLOSED; round.clear()) {
                round.add(first);
                int messages = first.batch().size();
                for (Submitted next; (next = queue.peek()) != null && fits(next, messages); ) {
                    round.add(queue.remove());
                    messages += next.batch().size();
                }
                if (linger.roundBegins() && round.size() == 1 && messages < mostMessages) {
                    Submitted second = queue.poll(linger.duration().toNanos(), TimeUnit.NANOSECONDS);
                    if (second == CLOSED) {
                        handle(round, messages);
                        return;
                    }
                    if (second != null && fits(second, messages)) {
                        round.add(second);
                        messages += second.batch().size();
                    } else if (second != null) {
                        handle(round, messages);
                        round.clear();
                        round.add(second);
                        messages = second.batch().size();
                    }
                }
                handle(round, messages);
            }
        } catch (InterruptedException e) {
            // closing gave up waiting: what is still queued is redone after the job restarts from its snapshot
            round.forEach(left -> left.statuses().completeExceptionally(e));
            queue.forEach(left -> left.statuses().completeExceptionally(e));
        }
    }

    private boolean fits(Submitted next, int messages) {
        return next != CLOSED && messages + next.batch().size() <= mostMessages;
    }

    /** One transaction for the whole round; each submitted batch gets its own statuses back. */
    private void handle(List<Submitted> round, int messages) {
        try {
            if (round.size() == 1) {
                round.getFirst()
                        .statuses()
                        .complete(
                                List.copyOf(runner.handleBatch(round.getFirst().batch())));
                return;
            }
            List<SagaRunner.Delivery> merged = new ArrayList<>(messages);
            round.forEach(submitted -> merged.addAll(submitted.batch()));
            List<String> statuses = runner.handleBatch(merged);
            int from = 0;
            for (Submitted submitted : round) {
                int to = from + submitted.batch().size();
                submitted.statuses().complete(List.copyOf(statuses.subList(from, to)));
                from = to;
            }
        } catch (Throwable e) {
            // The runner never throws; if it does, the job fails and restarts from its snapshot.
            round.forEach(submitted -> submitted.statuses().completeExceptionally(e));
        }
    }

    /** Takes no more batches and waits for those already submitted. */
    @Override
    public void close() {
        synchronized (queue) {
            if (!open) {
                return;
            }
            open = false;
            queue.add(CLOSED);
        }
        try {
            if (!thread.join(CLOSE_WAIT)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.interrupt();
        }
    }
}
