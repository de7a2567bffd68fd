package io.sagaflow.framework.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters.ServiceClusterSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Long polls on a view cache shared by two real members (ADR 0025): a reader waiting on one member is answered when
 * the view changes on the other, and no sooner; waiting is bounded per member and ends with the service.
 */
class ViewCacheIT {

    private static final String MAP = "things";

    /** A view: what a client reads, with the version every change moves on. */
    record Thing(String id, int version) {}

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private final ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
    private final JsonMapper json = new JsonMapper();
    /** The "database" the cache loads through from. */
    private final Map<String, Thing> rows = new ConcurrentHashMap<>();

    private ViewCache<Thing> writer;
    private ViewCache<Thing> reader;

    @BeforeEach
    void startTwoMembers() {
        ServiceClusterSpec spec = clusters.newServiceCluster();
        var loading = ViewCache.<Thing>loadThrough(
                MAP, new MapLimits(100, Duration.ZERO, 1), json, id -> Optional.ofNullable(rows.get(id)));
        HazelcastInstance first = clusters.startMember(spec, loading);
        HazelcastInstance second = clusters.startMember(spec, loading);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> first.getCluster().getMembers().size() == 2);
        writer = new ViewCache<>(first, MAP, json, Thing.class, 4);
        reader = new ViewCache<>(second, MAP, json, Thing.class, 2);
    }

    @AfterEach
    void stop() {
        readers.shutdownNow();
        clusters.close();
    }

    @Test
    void aReaderWaitingOnOneMemberIsAnsweredWhenTheViewChangesOnTheOther() throws Exception {
        rows.put("a", new Thing("a", 1));
        List<Boolean> parked = new CopyOnWriteArrayList<>();
        CompletableFuture<Optional<Thing>> waiting = read("a", 1, Duration.ofSeconds(30), () -> parked.add(true));
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.waiting() == 1);
        assertThat(waiting).as("unchanged: still waiting").isNotDone();

        rows.put("a", new Thing("a", 2));
        writer.invalidateAfterCommit("a");

        assertThat(waiting.get(10, TimeUnit.SECONDS)).contains(new Thing("a", 2));
        assertThat(parked).containsExactly(true);
        assertThat(reader.waiting()).isZero();
    }

    @Test
    void anUnchangedViewIsAnsweredAsItIsOnceTheWaitIsOver() throws Exception {
        rows.put("b", new Thing("b", 7));
        long started = System.nanoTime();

        Optional<Thing> answer = read("b", 7, Duration.ofMillis(300), () -> {}).get(10, TimeUnit.SECONDS);

        assertThat(answer).contains(new Thing("b", 7));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aChangedOrMissingViewOrAReaderThatWillNotWaitIsAnsweredAtOnce_withoutParking() throws Exception {
        rows.put("c", new Thing("c", 3));
        List<Boolean> parked = new CopyOnWriteArrayList<>();

        assertThat(read("c", 2, Duration.ofSeconds(30), () -> parked.add(true)).get(10, TimeUnit.SECONDS))
                .as("already changed")
                .contains(new Thing("c", 3));
        assertThat(read("missing", 1, Duration.ofSeconds(30), () -> parked.add(true))
                        .get(10, TimeUnit.SECONDS))
                .isEmpty();
        assertThat(read("c", 3, Duration.ZERO, () -> parked.add(true)).get(10, TimeUnit.SECONDS))
                .contains(new Thing("c", 3));
        assertThat(parked).isEmpty();
    }

    @Test
    void pastItsMostWaitingReadersAMemberAnswersAtOnce() throws Exception {
        rows.put("d", new Thing("d", 1));
        CompletableFuture<Optional<Thing>> first = read("d", 1, Duration.ofSeconds(30), () -> {});
        CompletableFuture<Optional<Thing>> second = read("d", 1, Duration.ofSeconds(30), () -> {});
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.waiting() == 2);

        List<Boolean> parked = new CopyOnWriteArrayList<>();
        assertThat(read("d", 1, Duration.ofSeconds(30), () -> parked.add(true)).get(10, TimeUnit.SECONDS))
                .contains(new Thing("d", 1));
        assertThat(parked).as("the third reader did not wait").isEmpty();

        rows.put("d", new Thing("d", 2));
        writer.invalidateAfterCommit("d");
        assertThat(first.get(10, TimeUnit.SECONDS)).contains(new Thing("d", 2));
        assertThat(second.get(10, TimeUnit.SECONDS)).contains(new Thing("d", 2));
    }

    @Test
    void stoppingTheServiceAnswersWaitingReadersAtOnce_andLaterOnesDoNotWait() throws Exception {
        rows.put("e", new Thing("e", 1));
        CompletableFuture<Optional<Thing>> waiting = read("e", 1, Duration.ofSeconds(30), () -> {});
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.waiting() == 1);

        reader.stop();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).contains(new Thing("e", 1));
        assertThat(reader.isRunning()).isFalse();
        List<Boolean> parked = new CopyOnWriteArrayList<>();
        assertThat(read("e", 1, Duration.ofSeconds(30), () -> parked.add(true)).get(10, TimeUnit.SECONDS))
                .contains(new Thing("e", 1));
        assertThat(parked).isEmpty();
    }

    /** Reads {@code id} on the second member, waiting while its version is {@code version}. */
    private CompletableFuture<Optional<Thing>> read(String id, int version, Duration wait, Runnable beforeWaiting) {
        return CompletableFuture.supplyAsync(
                () -> reader.awaitChange(id, thing -> thing.version() == version, wait, beforeWaiting), readers);
    }
}
