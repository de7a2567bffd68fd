package io.sagaflow.framework.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import io.sagaflow.framework.messaging.Replays;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Answers the consumers' requests to resend what a topic carried since a time (ADR 0093): the events this service
 * published on the topic since then, less a margin, go back into the outbox, from the event store where every one of
 * them still is, and the relays publish them again like any other row. A consumer receives those it handled already
 * once more and deduplicates them (ADR 0004, 0020); those it missed reach it now.
 *
 * <p>What a topic carried since a time is not recorded: a row is deleted once published (ADR 0046). It is
 * approximated by the events appended since that time less a reach back: an event is appended before it is published,
 * by its outbox lag, which the reach back must exceed. It is {@code margin}, or the longest lag of the rows the relay
 * published in the last five minutes or so if that is longer (a backlog). Never older than {@code maxAge}: an event
 * older than a consumer's processed-event retention would be handled as new (ADR 0004), so {@code maxAge} must stay
 * below every consumer's.
 *
 * <p>One relay answers at a time, the holder of bucket 0 ({@link OutboxRelay}); it reads the event store on the
 * service's own connections, which may use the index of append times ({@code es_event_occurred_at}, a BRIN index that
 * a relay's connection does not use, {@link RelayDataSource}).
 */
public final class OutboxReplay {

    private static final Logger log = LoggerFactory.getLogger(OutboxReplay.class);

    /** The events of some published types appended since a time, in the order they were appended. */
    static final String APPENDED_SINCE = "select event_id, stream_id, type, occurred_at from es_event"
            + " where occurred_at >= ? and type = any(?) order by transaction_id, global_sequence";

    /** How many events a service puts back into the outbox in one statement. */
    public static final int BATCH = 10_000;

    /** Outbox rows for the given events, with the given buckets, inserted in the order given. */
    static final String OUTBOX_AGAIN = "insert into outbox (bucket, event_id, stream_id, stream_version, type,"
            + " schema_version, occurred_at, correlation_id, causation_id, traceparent, tracestate, payload)"
            + " select r.bucket, e.event_id, e.stream_id, e.version, e.type, e.schema_version, e.occurred_at,"
            + " e.correlation_id, e.causation_id, e.traceparent, e.tracestate, e.payload::text"
            + " from unnest(?::uuid[], ?::int[]) with ordinality as r (event_id, bucket, n)"
            + " join es_event e on e.event_id = r.event_id order by r.n";

    private final JdbcTemplate jdbc;
    private final ReliableTopicEventBus bus;
    private final OutboxSignal signal;
    private final int buckets;
    private final Duration margin;
    private final Duration maxAge;
    private final Clock clock;
    private final Map<String, String> publisherByType;
    private final Set<String> publishers;
    private final Counter resent;
    private final int batchSize;

    /**
     * @param jdbc the service's database, on connections that plan as usual
     * @param publishers the topic families of the events this service appends (its registry also holds those of
     *     the services it consumes)
     * @param types the service's registry
     * @param buckets the outbox's buckets ({@link OutboxSettings#buckets()})
     * @param margin how much earlier than a request's time events are resent at least: above the outbox's usual lag
     * @param maxAge the oldest event resent: below every consumer's processed-event retention
     * @param batchSize how many events go back into the outbox in one statement ({@link #BATCH} in a service)
     */
    public OutboxReplay(
            JdbcTemplate jdbc,
            ReliableTopicEventBus bus,
            Set<String> publishers,
            EventTypeRegistry types,
            OutboxSignal signal,
            int buckets,
            Duration margin,
            Duration maxAge,
            MeterRegistry meters,
            Clock clock,
            int batchSize) {
        this.batchSize = batchSize;
        this.jdbc = jdbc;
        this.bus = bus;
        this.signal = signal;
        this.buckets = buckets;
        this.margin = margin;
        this.maxAge = maxAge;
        this.clock = clock;
        this.publisherByType = types.all().stream()
                .filter(type -> type.published() && publishers.contains(type.publisher()))
                .collect(Collectors.toUnmodifiableMap(EventType::name, EventType::publisher));
        Set<String> unknown = new TreeSet<>(publishers);
        unknown.removeAll(publisherByType.values());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no published event type is registered under " + unknown);
        }
        this.publishers = Set.copyOf(publishers);
        this.resent = Counter.builder("sagaflow.outbox.replayed")
                .description("Events put back into the outbox at a consumer's request, to be published again")
                .register(meters);
    }

    /** The consumers' requests, to run {@link #answer()} on. */
    public Replays replays() {
        return bus.replays();
    }

    /**
     * Answers every pending request for a topic of this service's publishers: puts the events back into the outbox and
     * marks the requests answered.
     *
     * @param longestRecentLag the longest outbox lag of the rows this replica published lately: the replay reaches
     *     back by this much if it is more than the margin
     * @return how many events went back into the outbox
     */
    public int answer(Duration longestRecentLag) {
        Duration reach = longestRecentLag.compareTo(margin) > 0 ? longestRecentLag : margin;
        if (publishers.isEmpty()) {
            return 0;
        }
        Map<String, Long> requests = bus.replays().pending(this::isOwn);
        if (requests.isEmpty()) {
            return 0;
        }
        Instant oldest = clock.instant().minus(maxAge);
        Map<String, Instant> from = new HashMap<>();
        requests.forEach((topic, since) -> {
            Instant start = Instant.ofEpochMilli(since).minus(reach);
            if (start.isBefore(oldest)) {
                log.warn(
                        "a consumer of {} asked for what it published since {}; only events appended since {} are"
                                + " resent: older ones may have left the consumers' processed-event records",
                        topic,
                        Instant.ofEpochMilli(since),
                        oldest);
                start = oldest;
            }
            from.put(topic, start);
        });
        Instant earliest = from.values().stream().min(Instant::compareTo).orElseThrow();
        Map<String, Integer> counts = new HashMap<>();
        Batch batch = new Batch();
        // Streamed through a cursor (a fetch size works only outside autocommit) and put back a batch at a time on
        // other connections, so that a long reach back holds neither all its events in memory nor its rows from the
        // relays until the end.
        jdbc.execute((ConnectionCallback<Void>) connection -> {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (var statement = connection.prepareStatement(APPENDED_SINCE)) {
                statement.setFetchSize(batchSize);
                statement.setTimestamp(1, Timestamp.from(earliest));
                statement.setArray(
                        2,
                        connection.createArrayOf(
                                "text", publisherByType.keySet().toArray()));
                try (var rs = statement.executeQuery()) {
                    while (rs.next()) {
                        String streamId = rs.getString(2);
                        String topic = bus.topicName(publisherByType.get(rs.getString(3)), bus.shardOf(streamId));
                        Instant start = from.get(topic);
                        if (start != null && !rs.getTimestamp(4).toInstant().isBefore(start)) {
                            batch.add(rs.getObject(1, UUID.class), OutboxWriter.bucketOf(streamId, buckets));
                            counts.merge(topic, 1, Integer::sum);
                            if (batch.size() == batchSize) {
                                putBack(batch);
                            }
                        }
                    }
                }
                putBack(batch);
                connection.commit();
            } finally {
                connection.setAutoCommit(autoCommit);
            }
            return null;
        });
        requests.forEach((topic, since) -> {
            boolean answered = bus.replays().answered(topic, since);
            log.info(
                    "put {} events back into the outbox for {}, appended since {} (asked since {}){}",
                    counts.getOrDefault(topic, 0),
                    topic,
                    from.get(topic),
                    Instant.ofEpochMilli(since),
                    answered ? "" : "; asked again for earlier meanwhile");
        });
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Inserts the outbox rows of {@code batch}'s events, in its order, wakes their relays, and empties it. */
    private void putBack(Batch batch) {
        if (batch.size() == 0) {
            return;
        }
        jdbc.update(connection -> {
            var statement = connection.prepareStatement(OUTBOX_AGAIN);
            statement.setArray(1, connection.createArrayOf("uuid", batch.events.toArray()));
            statement.setArray(2, connection.createArrayOf("integer", batch.buckets.toArray()));
            return statement;
        });
        signal.committed(bucketsOf(batch.buckets));
        resent.increment(batch.size());
        batch.clear();
    }

    /** The topic families of the events this service appends. */
    public Set<String> publishers() {
        return publishers;
    }

    private boolean isOwn(String topic) {
        try {
            return publishers.contains(bus.publisherOf(topic));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Events to put back, with their buckets, in append order. */
    private static final class Batch {

        final List<UUID> events = new ArrayList<>();
        final List<Integer> buckets = new ArrayList<>();

        void add(UUID event, int bucket) {
            events.add(event);
            buckets.add(bucket);
        }

        int size() {
            return events.size();
        }

        void clear() {
            events.clear();
            buckets.clear();
        }
    }

    private static BitSet bucketsOf(Collection<Integer> buckets) {
        BitSet written = new BitSet();
        buckets.forEach(written::set);
        return written;
    }
}
