package io.sagaflow.sharedcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.config.Config;
import com.hazelcast.config.RestEndpointGroup;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.TopicOverloadPolicy;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;

class SharedClusterMemberTest {

    @Test
    void holdsTheTopicAsTheServicesAreToldToUseIt() {
        Config config = SharedClusterMember.config(
                "--sagaflow.hazelcast.shared.cluster-name=local-shared",
                "--sagaflow.hazelcast.shared.port=5901",
                "--sagaflow.hazelcast.shared.port-count=1",
                "--sagaflow.hazelcast.shared.topic.capacity=4000",
                "--sagaflow.hazelcast.shared.topic.ttl=20s",
                // The services' other arguments come along and are ignored.
                "--server.port=8083",
                "--management.metrics.distribution.percentiles-histogram.http.server.requests=true");

        assertThat(config.getClusterName()).isEqualTo("local-shared");
        assertThat(config.getNetworkConfig().getPort()).isEqualTo(5901);
        assertThat(config.getJetConfig().isEnabled()).isFalse();
        var ringbuffer = config.getRingbufferConfig("sagaflow.events.order-stock.3");
        assertThat(ringbuffer.getCapacity()).isEqualTo(4000);
        assertThat(ringbuffer.getTimeToLiveSeconds()).isEqualTo(20);
        assertThat(ringbuffer.getBackupCount()).isEqualTo(1);
        assertThat(config.getReliableTopicConfig("sagaflow.events.order-stock.3")
                        .getTopicOverloadPolicy())
                .isEqualTo(TopicOverloadPolicy.BLOCK);
        var rest = config.getNetworkConfig().getRestApiConfig();
        assertThat(rest.isEnabled()).isTrue();
        assertThat(rest.getEnabledGroups()).containsExactly(RestEndpointGroup.HEALTH_CHECK);
    }

    @Test
    void refusesSettingsItCannotRead() {
        assertThatThrownBy(() -> SharedClusterMember.config("--sagaflow.hazelcast.shared.topic.capacity=many"))
                .isInstanceOf(BindException.class)
                .hasMessageContaining("sagaflow.hazelcast.shared.topic.capacity");
    }

    @Test
    void servicesReachEachOtherThroughItAsClientsAndItAnswersItsHealthCheck() throws Exception {
        int port = ThreadLocalRandom.current().nextInt(20_000, 40_000);
        String cluster = "shared-" + port;
        HazelcastInstance member = Hazelcast.newHazelcastInstance(SharedClusterMember.config(
                "--sagaflow.hazelcast.shared.cluster-name=" + cluster,
                "--sagaflow.hazelcast.shared.port=" + port,
                "--sagaflow.hazelcast.shared.port-count=1",
                "--sagaflow.hazelcast.shared.bind-interface=127.0.0.1",
                "--sagaflow.hazelcast.shared.partition-count=11",
                "--sagaflow.hazelcast.shared.properties[hazelcast.wait.seconds.before.join]=0",
                "--sagaflow.hazelcast.shared.properties[hazelcast.max.wait.seconds.before.join]=0"));
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        shared.setMode(SagaflowHazelcastProperties.Shared.Mode.CLIENT);
        shared.setClusterName(cluster);
        shared.setAddresses(List.of("127.0.0.1:" + port));
        HazelcastInstance publisher = HazelcastClient.newHazelcastClient(HazelcastConfigs.sharedClient(shared, null));
        HazelcastInstance subscriber = HazelcastClient.newHazelcastClient(HazelcastConfigs.sharedClient(shared, null));
        try (HttpClient http = HttpClient.newHttpClient()) {
            BlockingQueue<String> received = new ArrayBlockingQueue<>(1);
            String topic = "sagaflow.events.order-stock.5";
            subscriber.<String>getReliableTopic(topic).addMessageListener(m -> received.add(m.getMessageObject()));

            publisher.<String>getReliableTopic(topic).publish("OrderPlaced");

            assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("OrderPlaced");
            HttpResponse<Void> ready = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hazelcast/health/ready"))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(ready.statusCode()).isEqualTo(200);
        } finally {
            publisher.shutdown();
            subscriber.shutdown();
            member.getLifecycleService().terminate();
        }
    }
}
