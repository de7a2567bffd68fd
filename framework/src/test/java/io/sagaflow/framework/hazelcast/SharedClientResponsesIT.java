package io.sagaflow.framework.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.properties.ClientProperty;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client of the shared cluster completes its calls on the I/O thread that read the response, without response
 * threads of its own (ADR 0068), against a real member. Hazelcast's default starts two such threads as soon as calls
 * overlap; the second test shows that the overlapping calls here do start them, so the first cannot pass by accident.
 */
class SharedClientResponsesIT {

    private static final String RESPONSE_THREAD = ".responsethread-";

    private final HazelcastTestClusters clusters = new HazelcastTestClusters();
    private HazelcastInstance client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.shutdown();
        }
        clusters.close();
    }

    @Test
    void overlappingCallsCompleteWithoutResponseThreads() {
        SagaflowHazelcastProperties.Shared shared = clusters.newSharedCluster();
        clusters.startSharedMember(shared);
        ClientConfig config = HazelcastConfigs.sharedClient(shared, null);

        client = HazelcastClient.newHazelcastClient(config);
        overlappingCalls(client);

        assertThat(responseThreadsOf(config)).isEmpty();
    }

    @Test
    void hazelcastsDefaultStartsResponseThreadsForTheSameCalls() {
        SagaflowHazelcastProperties.Shared shared = clusters.newSharedCluster();
        clusters.startSharedMember(shared);
        shared.getProperties()
                .put(
                        ClientProperty.RESPONSE_THREAD_COUNT.getName(),
                        ClientProperty.RESPONSE_THREAD_COUNT.getDefaultValue());
        ClientConfig config = HazelcastConfigs.sharedClient(shared, null);

        client = HazelcastClient.newHazelcastClient(config);
        overlappingCalls(client);

        assertThat(responseThreadsOf(config)).isNotEmpty();
    }

    /** A few rounds of 200 puts in flight at once, every one of which must complete. */
    private static void overlappingCalls(HazelcastInstance client) {
        IMap<Integer, Integer> map = client.getMap("responses");
        for (int round = 0; round < 5; round++) {
            List<CompletableFuture<Integer>> calls = IntStream.range(0, 200)
                    .mapToObj(i -> map.putAsync(i, i).toCompletableFuture())
                    .toList();
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(map.size()).isEqualTo(200);
    }

    private static List<String> responseThreadsOf(ClientConfig config) {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name -> name.startsWith(config.getInstanceName() + RESPONSE_THREAD))
                .toList();
    }
}
