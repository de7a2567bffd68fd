package io.sagaflow.framework.autoconfigure;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Shared.Mode;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.hazelcast.SharedCluster;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The two Hazelcast connections of a service: its embedded member of the per-service cluster (primary bean) and its
 * link to the shared cluster, either an in-process member (local mode) or a client.
 */
@AutoConfiguration
@EnableConfigurationProperties(SagaflowHazelcastProperties.class)
public class SagaflowHazelcastAutoConfiguration {

    @Bean(destroyMethod = "shutdown")
    @Primary
    @ServiceCluster
    @ConditionalOnMissingBean(annotation = ServiceCluster.class)
    HazelcastInstance serviceHazelcast(
            SagaflowHazelcastProperties properties,
            @Value("${spring.application.name}") String applicationName,
            ObjectProvider<ServiceClusterCustomizer> customizers) {
        String clusterName = properties.getService().getClusterName();
        Config config = HazelcastConfigs.serviceMember(
                clusterName == null || clusterName.isBlank() ? applicationName : clusterName,
                properties.getService(),
                properties.getMaps());
        customizers.orderedStream().forEach(customizer -> customizer.customize(config));
        return Hazelcast.newHazelcastInstance(config);
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService sagaflowTopicListenerExecutor(SagaflowHazelcastProperties properties) {
        return Executors.newFixedThreadPool(
                properties.getShared().getTopic().getListenerThreads(),
                Thread.ofPlatform().name("event-listener-", 0).daemon().factory());
    }

    @Bean(destroyMethod = "shutdown")
    @SharedCluster
    @ConditionalOnMissingBean(annotation = SharedCluster.class)
    HazelcastInstance sharedHazelcast(
            SagaflowHazelcastProperties properties, ExecutorService sagaflowTopicListenerExecutor) {
        var shared = properties.getShared();
        return shared.getMode() == Mode.EMBEDDED
                ? Hazelcast.newHazelcastInstance(HazelcastConfigs.sharedMember(shared, sagaflowTopicListenerExecutor))
                : HazelcastClient.newHazelcastClient(
                        HazelcastConfigs.sharedClient(shared, sagaflowTopicListenerExecutor));
    }

    @Bean
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    @ConditionalOnMissingBean(name = "hazelcastHealthIndicator")
    HazelcastHealthIndicator hazelcastHealthIndicator(
            @ServiceCluster HazelcastInstance service, @SharedCluster HazelcastInstance shared) {
        return new HazelcastHealthIndicator(service, shared);
    }

    @Bean
    @ConditionalOnMissingBean
    ReliableTopicEventBus reliableTopicEventBus(
            @SharedCluster HazelcastInstance shared, SagaflowHazelcastProperties properties) {
        var topic = properties.getShared().getTopic();
        return new ReliableTopicEventBus(
                shared, topic.getPrefix(), topic.getShards(), topic.getPublishTimeout(), topic.getTtl());
    }
}
