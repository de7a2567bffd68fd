package io.sagaflow.framework.test.hazelcast;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Gives a Spring test context its own Hazelcast clusters: random cluster names and port ranges on 127.0.0.1, few
 * partitions, no join wait, so contexts in one JVM never join each other and start fast.
 */
public class HazelcastTestPropertiesInitializer
        implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        int servicePort = HazelcastTestClusters.randomPortBase();
        int sharedPort = HazelcastTestClusters.randomPortBase();
        Map<String, Object> properties = new HashMap<>();
        properties.put("sagaflow.hazelcast.service.cluster-name", "it-" + UUID.randomUUID());
        properties.put("sagaflow.hazelcast.service.port", servicePort);
        properties.put("sagaflow.hazelcast.service.port-count", 10);
        properties.put("sagaflow.hazelcast.service.bind-interface", "127.0.0.1");
        properties.put("sagaflow.hazelcast.service.members", "127.0.0.1");
        properties.put("sagaflow.hazelcast.service.partition-count", 11);
        properties.put("sagaflow.hazelcast.service.jet-cooperative-threads", 1);
        properties.put("sagaflow.hazelcast.shared.mode", "embedded");
        properties.put("sagaflow.hazelcast.shared.cluster-name", "it-shared-" + UUID.randomUUID());
        properties.put("sagaflow.hazelcast.shared.port", sharedPort);
        properties.put("sagaflow.hazelcast.shared.port-count", 10);
        properties.put("sagaflow.hazelcast.shared.bind-interface", "127.0.0.1");
        properties.put("sagaflow.hazelcast.shared.members", "127.0.0.1");
        properties.put("sagaflow.hazelcast.shared.partition-count", 11);
        properties.put("sagaflow.hazelcast.shared.topic.listener-threads", 2);
        HazelcastTestClusters.FAST_JOIN.forEach((key, value) -> {
            properties.put("sagaflow.hazelcast.service.properties[" + key + "]", value);
            properties.put("sagaflow.hazelcast.shared.properties[" + key + "]", value);
        });
        context.getEnvironment()
                .getPropertySources()
                .addFirst(new MapPropertySource("sagaflowHazelcastTest", properties));
    }
}
