package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.gateway.support.FakeService;
import io.sagaflow.gateway.support.StaticDiscovery;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;

/** Real probes to real HTTP replicas ({@link FakeService}), one round at a time. */
class ReadyReplicasTest {

    private static final String READINESS = FakeService.READINESS;

    private final FakeService first = FakeService.start("order");
    private final FakeService second = FakeService.start("order");
    private final ServiceInstance firstInstance = instance(first);
    private final ServiceInstance secondInstance = instance(second);
    private final List<ServiceInstance> both = List.of(firstInstance, secondInstance);
    private final HttpClient http = HttpClient.newHttpClient();
    private final ReadyReplicas replicas = probedEvery(Duration.ZERO, Duration.ofSeconds(10));

    @AfterEach
    void stopReplicas() {
        first.stop();
        second.stop();
        http.close();
    }

    @Test
    void aReplicaNotAskedYetIsOffered_andOneThatSaysItIsNotReadyIsLeftOutUntilItSaysItIs() {
        assertThat(replicas.ready(both)).containsExactly(firstInstance, secondInstance);

        second.answer(READINESS, 503);
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).containsExactly(firstInstance);
        assertThat(second.probes()).isEqualTo(1);

        second.answer(READINESS, 200);
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).containsExactly(firstInstance, secondInstance);
    }

    @Test
    void aReplicaStartedAgainStaysOutWhileItsPortIsOpenButItIsNotReady() {
        second.stop();
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).as("refused at once").containsExactly(firstInstance);

        second.answer(READINESS, 503);
        second.restart();
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).as("port open, not ready").containsExactly(firstInstance);

        second.answer(READINESS, 200);
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).containsExactly(firstInstance, secondInstance);
    }

    @Test
    void aReplicaTooSlowToAnswerIsLeftOutOnlyAfterThreeProbesInARowWentUnanswered() {
        second.delay(READINESS, Duration.ofMillis(600));
        replicas.probeAll().join();
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).as("two unanswered").containsExactly(firstInstance, secondInstance);

        second.delay(READINESS, Duration.ZERO);
        replicas.probeAll().join();
        second.delay(READINESS, Duration.ofMillis(600));
        replicas.probeAll().join();
        replicas.probeAll().join();
        assertThat(replicas.ready(both))
                .as("an answer in between starts the count again")
                .hasSize(2);

        replicas.probeAll().join();
        assertThat(replicas.ready(both)).as("three in a row").containsExactly(firstInstance);
    }

    @Test
    void aReplicaLeftOutComesBackOnlyWithAPromptAnswer() {
        second.stop();
        replicas.probeAll().join();
        second.delay(READINESS, Duration.ofMillis(600));
        second.restart();

        replicas.probeAll().join();
        assertThat(replicas.ready(both)).as("a 200 after the time-out").containsExactly(firstInstance);

        second.delay(READINESS, Duration.ZERO);
        replicas.probeAll().join();
        assertThat(replicas.ready(both)).containsExactly(firstInstance, secondInstance);
    }

    @Test
    void whenNoReplicaIsReadyAllAreOffered() {
        first.answer(READINESS, 503);
        second.stop();
        replicas.probeAll().join();

        assertThat(replicas.ready(both)).containsExactly(firstInstance, secondInstance);
    }

    @Test
    void probesRunEveryIntervalOnceStarted_andNotAtAllWithAnIntervalOfZero() throws InterruptedException {
        replicas.start();
        assertThat(replicas.isRunning()).isFalse();
        ReadyReplicas off = new ReadyReplicas(
                StaticDiscovery.of("order", firstInstance, secondInstance),
                List.of("order"),
                () -> {
                    throw new AssertionError("probing off, but the probes' HTTP client was built");
                },
                Duration.ZERO,
                Duration.ofMillis(300),
                3,
                Duration.ofSeconds(10));
        off.start();
        assertThat(off.ready(both)).isEqualTo(both);
        off.close();

        second.answer(READINESS, 503);
        ReadyReplicas probing = probedEvery(Duration.ofMillis(100), Duration.ofSeconds(10));
        probing.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (probing.ready(both).size() == 2 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(probing.ready(both)).containsExactly(firstInstance);
        } finally {
            probing.stop();
        }
        assertThat(probing.isRunning()).isFalse();
        assertThat(first.probes()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void theProbesRestWithoutRequests_keepWhatTheyLearnt_andTheNextRequestStartsThemAgain()
            throws InterruptedException {
        second.answer(READINESS, 503);
        ReadyReplicas probing = probedEvery(Duration.ofMillis(50), Duration.ofMillis(400));
        probing.start();
        try {
            assertThat(within(Duration.ofSeconds(5), probing::resting))
                    .as("no request for 400 ms: the probes rest")
                    .isTrue();
            Thread.sleep(350); // a probe sent just before answers within its time-out
            int probed = first.probes();
            Thread.sleep(300);
            assertThat(first.probes()).as("no probe while they rest").isEqualTo(probed);

            assertThat(probing.ready(both))
                    .as("the request that wakes them is answered with what they last said")
                    .containsExactly(firstInstance);
            assertThat(probing.resting()).isFalse();
            assertThat(within(Duration.ofSeconds(5), () -> first.probes() > probed))
                    .as("probed again")
                    .isTrue();
        } finally {
            probing.stop();
        }
    }

    /** Both replicas, probed every {@code interval} (none: 0) with a 300-ms time-out, three unanswered leave out. */
    private ReadyReplicas probedEvery(Duration interval, Duration idleAfter) {
        return new ReadyReplicas(
                StaticDiscovery.of("order", firstInstance, secondInstance),
                List.of("order"),
                () -> http,
                interval,
                Duration.ofMillis(300),
                3,
                idleAfter);
    }

    private static boolean within(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private static ServiceInstance instance(FakeService replica) {
        URI uri = URI.create(replica.uri());
        return new DefaultServiceInstance(
                replica.name() + "-" + uri.getPort(), "order", uri.getHost(), uri.getPort(), false);
    }
}
