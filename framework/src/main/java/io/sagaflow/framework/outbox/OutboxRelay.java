package io.sagaflow.framework.outbox;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.lease.LeaseTable;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.EventPublisher;
import io.sagaflow.framework.transaction.TransientFailures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Publishes outbox rows to the shared topic. One relay runs in every replica; the replicas of a service share the
 * outbox buckets through a {@link LeaseTable} on their per-service cluster, and each relay publishes only the rows of
 * the buckets it holds, oldest first, and deletes them once the publisher confirmed them. Hence:
 *
 * <ul>
 *   <li>at least once: a row is deleted only after it was published; a relay that dies between the two leaves it
 *       pending, and whoever takes the bucket over publishes it again;
 *   <li>no duplicates in normal operation: a bucket has one holder at a time, changed by compare-and-set;
 *   <li>per-stream order: a stream's rows are all in one bucket and published in id order.
 * </ul>
 *
 * A batch is deleted in the same statement that selects the next one, so a busy relay costs one statement per batch
 * rather than two; the last batch is deleted before the relay's buckets can change hands (a rebalance,
 * {@link #stop()}) and at the latest one poll interval after it was published (ADR 0017). A published row is deleted,
 * not marked and kept: a mark wrote the row anew with all its index entries, and the table of kept rows grew to
 * hundreds of megabytes that vacuum and checkpoints went through (ADR 0046).
 *
 * <p>A commit wakes the relays that hold the buckets it wrote to, this replica's at once and others' through
 * {@link RelayWakeups}; the poll only finds rows whose wake-up went astray, so it can be slow (ADR 0035).
 *
 * <p>Its statements run on its own connection, on which PostgreSQL reads the outbox through its indexes only, so a
 * poll does not read the deleted rows that wait for vacuum ({@link RelayDataSource}, ADR 0063).
 *
 * Rows that an earlier version marked published and kept are pruned once older than the retention. See ADR 0003.
 */
public final class OutboxRelay {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    /**
     * Deletes published rows by their place in the heap, checked by their id: a TID scan or a look-up by primary key,
     * on the relay's connection that reads the outbox only through its indexes ({@link RelayDataSource}, ADR 0063). A
     * row that moved since it was read (VACUUM FULL, CLUSTER) is not found at its old place, and the id check refuses
     * whatever sits there now: it stays, and is published again, as after a crash (ADR 0046).
     */
    static final String DELETE_PUBLISHED = "delete from outbox where ctid = any(?::tid[]) and id = any(?)";

    /**
     * {@link #DELETE_PUBLISHED}, then the oldest pending rows of the relay's buckets but those it deletes, through an
     * index on the relay's connection.
     */
    static final String DELETE_PUBLISHED_AND_SELECT_PENDING = "with deleted as (" + DELETE_PUBLISHED + ")"
            + " select id, event_id::text, stream_id, stream_version, type,"
            + " schema_version, occurred_at, correlation_id, causation_id, traceparent, tracestate, payload, ctid::text,"
            + " created_at"
            + " from outbox where published_at is null and bucket = any(?) and id <> all(?)"
            + " order by id limit ?";

    private final JdbcTemplate jdbc;
    private final LeaseTable leases;
    private final HazelcastInstance member;
    private final EventPublisher publisher;
    private final OutboxSignal signal;
    private final RelayWakeups wakeups;
    private final EventTypeRegistry types;
    private final OutboxSettings settings;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean sharesChanged = new AtomicBoolean(true);
    private final OutboxReplay replay;
    private final AtomicBoolean replayAsked = new AtomicBoolean(true);
    private final AtomicBoolean answering = new AtomicBoolean();
    private final Set<String> undeclared = ConcurrentHashMap.newKeySet();
    private final AtomicLong backlog = new AtomicLong();
    private final Counter publishedCount;
    private final Timer lag;
    private final Timer select;
    private final Timer publish;
    private volatile Thread thread;
    private Runnable stopShareChanges = () -> {};
    private Runnable stopReplayRequests = () -> {};
    private Instant nextPrune = Instant.EPOCH;
    /** Rows published but not deleted yet; only the relay thread touches them. */
    private Published toDelete = Published.NONE;

    /**
     * @param replay answers the consumers' requests to publish again, when this relay holds bucket 0 (ADR 0093), or
     *     null for none
     */
    public OutboxRelay(
            JdbcTemplate jdbc,
            LeaseTable leases,
            HazelcastInstance member,
            EventPublisher publisher,
            OutboxSignal signal,
            EventTypeRegistry types,
            OutboxSettings settings,
            OutboxReplay replay,
            MeterRegistry meters,
            Clock clock) {
        this.jdbc = jdbc;
        this.replay = replay;
        this.leases = leases;
        this.member = member;
        this.publisher = publisher;
        this.signal = signal;
        this.wakeups = new RelayWakeups(member, signal, meters);
        this.types = types;
        this.settings = settings;
        this.clock = clock;
        this.publishedCount = meters.counter("sagaflow.outbox.published");
        // Its maximum is kept over the last five minutes or so: a replay reaches back at least by it (ADR 0093).
        this.lag = Timer.builder("sagaflow.outbox.lag")
                .description("Time from an outbox row's insert, with its event or by a replay, to its publication")
                .publishPercentileHistogram()
                .distributionStatisticExpiry(Duration.ofMinutes(5))
                .register(meters);
        this.select = Timer.builder("sagaflow.outbox.select")
                .description("Time to delete the last published batch and select the next, per batch")
                .publishPercentileHistogram()
                .register(meters);
        this.publish = Timer.builder("sagaflow.outbox.publish")
                .description("Time from handing a batch to the shared topic to its confirmation, per batch")
                .publishPercentileHistogram()
                .register(meters);
        Gauge.builder("sagaflow.outbox.backlog", backlog, AtomicLong::get)
                .description("Outbox rows waiting to be published, as last counted")
                .register(meters);
    }

    /** Starts the relay thread. */
    public synchronized void start() {
        if (running.compareAndSet(false, true)) {
            // Another relay that starts, stops or gives buckets up, or a member that joins or leaves, moves the shares
            // now, not at the next renewal: a replica that joined shares the buckets only once its relay runs (ADR
            // 0074).
            stopShareChanges = leases.onChange(() -> {
                sharesChanged.set(true);
                // Bucket 0 may have come here: its holder answers the requests to publish again.
                replayAsked.set(true);
                signal.signal();
            });
            if (replay != null) {
                stopReplayRequests = replay.replays().onRequest(() -> {
                    replayAsked.set(true);
                    signal.signal();
                });
            }
            signal.connect(wakeups);
            thread = Thread.ofPlatform().name("outbox-relay").daemon().start(this::run);
        }
    }

    /** Stops after the batch in flight, then hands the buckets back so other replicas take over at once. */
    public synchronized void stop() {
        if (running.compareAndSet(true, false)) {
            signal.signal();
            Thread relay = thread;
            try {
                relay.join(settings.pollInterval().toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            signal.connect(null);
            wakeups.close();
            try {
                if (member.getLifecycleService().isRunning()) {
                    stopShareChanges.run();
                    leases.releaseAll();
                }
            } catch (RuntimeException e) {
                log.warn("could not hand back outbox buckets", e);
            }
            try {
                stopReplayRequests.run();
            } catch (RuntimeException e) {
                log.debug("could not stop listening to replay requests", e);
            }
        }
    }

    public boolean isRunning() {
        return running.get();
    }

    private void run() {
        while (running.get()) {
            try {
                if (sharesChanged.getAndSet(false) || leases.dueForRenewal()) {
                    deletePublished();
                    leases.rebalance();
                    wakeups.holders(leases.holders(), settings.buckets());
                    backlog.set(countPending());
                }
                answerReplaysIfAsked();
                int published = publishOnce();
                pruneIfDue();
                if (published < settings.batchSize()) {
                    Duration untilRenewal = leases.untilRenewal();
                    signal.await(
                            untilRenewal.compareTo(settings.pollInterval()) < 0
                                    ? untilRenewal
                                    : settings.pollInterval());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                if (running.get()) {
                    if (TransientFailures.isTransient(e)) {
                        // the database away: a line each time, without the stack trace it would repeat (ADR 0102)
                        log.warn("outbox relay failed; retrying: {}", e.toString());
                    } else {
                        log.warn("outbox relay failed; retrying", e);
                    }
                    sleepQuietly(settings.pollInterval());
                }
            }
        }
        try {
            deletePublished();
        } catch (RuntimeException e) {
            // Whoever holds the buckets next publishes these rows again: at least once, as after a crash.
            log.warn("could not delete {} published outbox rows", toDelete.ids().length, e);
        }
    }

    /**
     * Puts back into the outbox what consumers asked to be published again, if one asked since the last look and this
     * relay holds bucket 0: one relay of the service answers (ADR 0093). On a thread of its own, one answer at a time,
     * so that the relay goes on publishing meanwhile, the rows put back among them.
     */
    private void answerReplaysIfAsked() {
        if (replay == null
                || answering.get()
                || !replayAsked.getAndSet(false)
                || !leases.held().contains(0)) {
            return;
        }
        Duration reach = Duration.ofNanos((long) lag.max(TimeUnit.NANOSECONDS));
        answering.set(true);
        Thread.ofVirtual().name("outbox-replay").start(() -> {
            try {
                replay.answer(reach);
            } catch (RuntimeException e) {
                log.warn("could not put back into the outbox what consumers asked for again; retrying", e);
                sleepQuietly(settings.pollInterval());
                replayAsked.set(true);
            } finally {
                answering.set(false);
                signal.signal();
            }
        });
    }

    /**
     * Publishes one batch of the pending rows in the buckets this replica holds.
     *
     * @return how many rows were published
     */
    int publishOnce() {
        Set<Integer> buckets = leases.held();
        if (buckets.isEmpty()) {
            deletePublished();
            return 0;
        }
        long started = System.nanoTime();
        List<Row> rows = deletePublishedAndSelectPending(buckets);
        long selected = System.nanoTime();
        select.record(selected - started, TimeUnit.NANOSECONDS);
        if (rows.isEmpty()) {
            return 0;
        }
        publisher.publish(rows.stream().map(Row::message).toList());
        publish.record(System.nanoTime() - selected, TimeUnit.NANOSECONDS);
        toDelete = Published.of(rows);
        Instant now = clock.instant();
        for (Row row : rows) {
            // From the row's insert: the append's for most, the replay's for one put back (ADR 0093), which would
            // otherwise count the age of its event.
            lag.record(Duration.between(row.insertedAt(), now));
        }
        publishedCount.increment(rows.size());
        return rows.size();
    }

    /** Deletes the last published batch, if it is not deleted yet. */
    void deletePublished() {
        if (toDelete.isEmpty()) {
            return;
        }
        Published deleting = toDelete;
        jdbc.update(DELETE_PUBLISHED, ps -> deleting.bind(ps, 1));
        toDelete = Published.NONE;
    }

    /**
     * Deletes the last published batch and selects the next one in one statement. The select sees the rows as they
     * were before the statement, so it leaves out the ones it deletes itself.
     */
    private List<Row> deletePublishedAndSelectPending(Set<Integer> buckets) {
        Integer[] held = buckets.toArray(Integer[]::new);
        Published deleting = toDelete;
        List<Row> rows = jdbc.execute((ConnectionCallback<List<Row>>) connection -> query(connection, held, deleting));
        toDelete = Published.NONE;
        return rows;
    }

    private List<Row> query(Connection connection, Integer[] buckets, Published deleting) throws SQLException {
        List<Row> rows = new ArrayList<>(settings.batchSize());
        try (var ps = connection.prepareStatement(DELETE_PUBLISHED_AND_SELECT_PENDING)) {
            deleting.bind(ps, 1);
            ps.setArray(3, connection.createArrayOf("integer", buckets));
            ps.setArray(4, connection.createArrayOf("bigint", deleting.ids()));
            ps.setInt(5, settings.batchSize());
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant occurredAt = rs.getTimestamp(7).toInstant();
                    String type = rs.getString(5);
                    rows.add(new Row(
                            rs.getLong(1),
                            rs.getString(13),
                            rs.getTimestamp(14).toInstant(),
                            new EventMessage(
                                    rs.getString(2),
                                    publisherOf(type),
                                    rs.getString(3),
                                    rs.getLong(4),
                                    type,
                                    rs.getInt(6),
                                    ChronoUnit.MICROS.between(Instant.EPOCH, occurredAt),
                                    rs.getString(8),
                                    rs.getString(9),
                                    rs.getString(10),
                                    rs.getString(11),
                                    rs.getString(12))));
                }
            }
        }
        return rows;
    }

    /**
     * The publisher whose topics {@code type} travels on. Only published types get outbox rows, so a row of an
     * unknown or private type means the registry lost a registration: the relay stops on it (and keeps retrying)
     * rather than drop it or send it where no consumer listens.
     */
    private String publisherOf(String type) {
        String publisher = types.get(type).publisher();
        if (publisher == null) {
            throw new IllegalStateException("outbox holds an event of private type '" + type + "'");
        }
        Set<String> declared = replay == null ? Set.of() : replay.publishers();
        if (!declared.contains(publisher) && undeclared.add(publisher)) {
            log.warn(
                    "publishing events of {}, which sagaflow.outbox.publishers does not name: consumers that miss"
                            + " them cannot have them published again (ADR 0093)",
                    publisher);
        }
        return publisher;
    }

    private long countPending() {
        Long count = jdbc.queryForObject("select count(*) from outbox where published_at is null", Long.class);
        return count == null ? 0 : count;
    }

    private void pruneIfDue() {
        Instant now = clock.instant();
        if (now.isBefore(nextPrune)) {
            return;
        }
        nextPrune = now.plus(settings.pruneInterval());
        int deleted = prune();
        if (deleted > 0) {
            log.debug("pruned {} published outbox rows", deleted);
        }
    }

    /**
     * Deletes rows marked published and older than the retention; returns how many. Only versions before ADR 0046
     * marked rows instead of deleting them, so this clears what they left, also while they still run beside this one
     * during a rolling update.
     */
    public int prune() {
        int total = 0;
        int deleted;
        do {
            deleted = jdbc.update(
                    "delete from outbox where id in (select id from outbox where published_at is not null"
                            + " and published_at < now() - make_interval(secs => ?) limit ?)",
                    (double) settings.retention().toSeconds(),
                    settings.pruneBatchSize());
            total += deleted;
        } while (deleted == settings.pruneBatchSize());
        return total;
    }

    private static void sleepQuietly(Duration duration) {
        try {
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Row(long id, String tid, Instant insertedAt, EventMessage message) {}

    /** The rows of a published batch: their places in the heap ({@code ctid}) and their ids, in the same order. */
    private record Published(String[] tids, Long[] ids) {

        static final Published NONE = new Published(new String[0], new Long[0]);

        static Published of(List<Row> rows) {
            return new Published(
                    rows.stream().map(Row::tid).toArray(String[]::new),
                    rows.stream().map(Row::id).toArray(Long[]::new));
        }

        boolean isEmpty() {
            return ids.length == 0;
        }

        /** Binds the places and the ids of {@link #DELETE_PUBLISHED} from parameter {@code first} on. */
        void bind(PreparedStatement ps, int first) throws SQLException {
            ps.setArray(first, ps.getConnection().createArrayOf("text", tids));
            ps.setArray(first + 1, ps.getConnection().createArrayOf("bigint", ids));
        }
    }
}
