package io.sagaflow.framework.outbox;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.IExecutorService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.util.BitSet;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the relays of other replicas when this replica commits outbox rows into buckets they hold. Every replica
 * writes rows into every bucket (a row's bucket is its stream's), but only the bucket's holder publishes them; without
 * a wake-up such a row waits for the holder's next poll.
 *
 * <p>A wake-up is a task without state run on the holder through the per-service cluster's executor; it signals the
 * {@link OutboxSignal} the holder registered in its member's user context. Wake-ups to one member are coalesced: at
 * most one every {@link #SPACING}, and none lost, since a commit that finds a wake-up just sent is followed by another
 * once the spacing has passed. A busy pair of replicas thus exchanges at most 200 wake-ups a second each way, and an
 * idle one none. A wake-up that goes astray (its target left, or handed the bucket on since the last rebalance) costs
 * latency, not rows: the holder's poll still finds them (ADR 0035).
 *
 * <p>Thread-safe: writers call {@link #wakeHoldersOf} from any thread; the relay thread updates the holders.
 */
final class RelayWakeups implements AutoCloseable {

    /** The shortest time between two wake-ups sent to the same member. */
    static final Duration SPACING = Duration.ofMillis(5);

    private static final Logger log = LoggerFactory.getLogger(RelayWakeups.class);
    private static final String SIGNAL_KEY = OutboxSignal.class.getName();

    private final HazelcastInstance member;
    private final OutboxSignal local;
    private final IExecutorService executor;
    private final ScheduledExecutorService timer;
    private final Map<UUID, Target> targets = new ConcurrentHashMap<>();
    private final Counter sent;
    /** The member to wake for each bucket: {@link #self} where this member holds it, {@code null} where nobody does. */
    private volatile Target[] holders = new Target[0];
    /** Stands for this member in {@link #holders}: its relay is woken through the signal, not the executor. */
    private final Target self;

    RelayWakeups(HazelcastInstance member, OutboxSignal local, MeterRegistry meters) {
        this.member = member;
        this.local = local;
        this.executor = member.getExecutorService(HazelcastNames.OUTBOX_WAKEUPS);
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().name("outbox-wakeups").daemon().factory());
        timer.setRemoveOnCancelPolicy(true);
        this.timer = timer;
        this.sent = Counter.builder("sagaflow.outbox.wakeups")
                .description("Wake-ups sent to other replicas' relays for rows in buckets they hold")
                .register(meters);
        this.self = new Target(member.getCluster().getLocalMember());
        member.getUserContext().put(SIGNAL_KEY, local);
    }

    /** Who holds which of the {@code buckets} buckets, as the relay's last rebalance saw it. */
    void holders(Map<Integer, UUID> holderOf, int buckets) {
        UUID selfUuid = member.getCluster().getLocalMember().getUuid();
        Map<UUID, Member> live = member.getCluster().getMembers().stream()
                .collect(Collectors.toMap(Member::getUuid, Function.identity()));
        targets.keySet().retainAll(live.keySet());
        Target[] next = new Target[buckets];
        holderOf.forEach((bucket, holder) -> {
            Member target = live.get(holder);
            if (target != null && bucket >= 0 && bucket < buckets) {
                next[bucket] =
                        holder.equals(selfUuid) ? self : targets.computeIfAbsent(holder, uuid -> new Target(target));
            }
        });
        holders = next;
    }

    /**
     * Wakes the other members that hold any of {@code buckets}.
     *
     * @return whether this member's relay should wake too: it holds one of them, or has not rebalanced yet
     */
    boolean wakeHoldersOf(BitSet buckets) {
        Target[] byBucket = holders;
        boolean local = byBucket.length == 0;
        for (int bucket = buckets.nextSetBit(0);
                bucket >= 0 && bucket < byBucket.length;
                bucket = buckets.nextSetBit(bucket + 1)) {
            Target target = byBucket[bucket];
            if (target == self) {
                local = true;
            } else if (target != null) {
                target.request();
            }
        }
        return local;
    }

    @Override
    public void close() {
        holders = new Target[0];
        timer.shutdownNow();
        if (member.getLifecycleService().isRunning()) {
            member.getUserContext().remove(SIGNAL_KEY, local);
        }
    }

    /** One member to wake, with its wake-ups coalesced. */
    private final class Target {

        private final Member member;
        /** A commit since the last wake-up was sent. */
        private final AtomicBoolean wanted = new AtomicBoolean();
        /** A wake-up was sent less than {@link #SPACING} ago; whoever set this sends the next one. */
        private final AtomicBoolean resting = new AtomicBoolean();

        Target(Member member) {
            this.member = member;
        }

        void request() {
            wanted.set(true);
            if (resting.compareAndSet(false, true)) {
                send();
            }
        }

        /** Runs while holding {@link #resting}: sends if wanted and rests for the spacing, else lets go. */
        private void send() {
            if (!wanted.getAndSet(false)) {
                resting.set(false);
                // A request between the two lines above found us resting and left the sending to us.
                if (wanted.get() && resting.compareAndSet(false, true)) {
                    send();
                }
                return;
            }
            try {
                executor.executeOnMember(new WakeRelay(), member);
                sent.increment();
            } catch (RuntimeException e) {
                // The member left or this one is shutting down: the holder's poll finds the rows.
                log.debug("could not wake the outbox relay of {}", member, e);
            }
            try {
                timer.schedule(this::send, SPACING.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                resting.set(false); // closed
            }
        }
    }

    /** Runs on the holder: signals its relay. */
    static final class WakeRelay implements Runnable, Serializable, HazelcastInstanceAware {

        @Serial
        private static final long serialVersionUID = 1L;

        private transient HazelcastInstance instance;

        @Override
        public void setHazelcastInstance(HazelcastInstance instance) {
            this.instance = instance;
        }

        @Override
        public void run() {
            if (instance != null && instance.getUserContext().get(SIGNAL_KEY) instanceof OutboxSignal signal) {
                signal.signal();
            }
        }
    }
}
