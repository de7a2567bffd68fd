package io.sagaflow.framework.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.topic.TopicOverloadPolicy;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HazelcastConfigsTest {

    @Test
    void serviceMemberJoinsByKubernetesDnsWhenAsked() {
        SagaflowHazelcastProperties.Service service = new SagaflowHazelcastProperties.Service();
        service.setJoin(SagaflowHazelcastProperties.Join.KUBERNETES);
        service.getKubernetes().setServiceDns("order-service-hz.sagaflow.svc.cluster.local");

        Config config = HazelcastConfigs.serviceMember("order-service", service, Map.of());

        var join = config.getNetworkConfig().getJoin();
        assertThat(config.getClusterName()).isEqualTo("order-service");
        assertThat(join.getKubernetesConfig().isEnabled()).isTrue();
        assertThat(join.getKubernetesConfig().getProperty("service-dns"))
                .isEqualTo("order-service-hz.sagaflow.svc.cluster.local");
        assertThat(join.getTcpIpConfig().isEnabled()).isFalse();
        assertThat(join.getMulticastConfig().isEnabled()).isFalse();
        assertThat(config.getJetConfig().isEnabled()).isTrue();
    }

    @Test
    void serviceMemberJoinsATcpMemberListByDefault() {
        SagaflowHazelcastProperties.Service service = new SagaflowHazelcastProperties.Service();
        service.setMembers(List.of("10.0.0.1", "10.0.0.2"));

        var join = HazelcastConfigs.serviceMember("account-service", service, Map.of())
                .getNetworkConfig()
                .getJoin();

        assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
        assertThat(join.getTcpIpConfig().getMembers()).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(join.getKubernetesConfig().isEnabled()).isFalse();
    }

    @Test
    void idleCooperativeJetThreadsSleepUpTo50MillisecondsOthers20UnlessTheServiceSaysOtherwise() {
        Config defaults =
                HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of());
        assertThat(defaults.getProperty("hazelcast.jet.idle.cooperative.max.microseconds"))
                .isEqualTo("50000");
        assertThat(defaults.getProperty("hazelcast.jet.idle.noncooperative.max.microseconds"))
                .isEqualTo("20000");

        SagaflowHazelcastProperties.Service eager = new SagaflowHazelcastProperties.Service();
        eager.getProperties().put("hazelcast.jet.idle.noncooperative.max.microseconds", "1000");
        Config configured = HazelcastConfigs.serviceMember("order-service", eager, Map.of());
        assertThat(configured.getProperty("hazelcast.jet.idle.noncooperative.max.microseconds"))
                .isEqualTo("1000");
        assertThat(configured.getProperty("hazelcast.jet.idle.cooperative.max.microseconds"))
                .isEqualTo("50000");
    }

    @Test
    void jetSendsItsFlowControlEverySecondUnlessTheServiceSaysOtherwise() {
        assertThat(HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of())
                        .getJetConfig()
                        .getFlowControlPeriodMs())
                .isEqualTo(1000);

        SagaflowHazelcastProperties.Service distributed = new SagaflowHazelcastProperties.Service();
        distributed.setJetFlowControlPeriod(Duration.ofMillis(100));
        assertThat(HazelcastConfigs.serviceMember("order-service", distributed, Map.of())
                        .getJetConfig()
                        .getFlowControlPeriodMs())
                .isEqualTo(100);
    }

    @Test
    void aClientLooksForUnansweredBackupsEverySecondUnlessTheSharedPropertiesSayOtherwise() {
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        assertThat(HazelcastConfigs.sharedClient(shared, null).getProperty(HazelcastConfigs.CLIENT_CLEAN_RESOURCES))
                .isEqualTo("1000");

        shared.getProperties().put(HazelcastConfigs.CLIENT_CLEAN_RESOURCES, "100");
        shared.getProperties().put("hazelcast.client.heartbeat.interval", "2000");
        ClientConfig configured = HazelcastConfigs.sharedClient(shared, null);
        assertThat(configured.getProperty(HazelcastConfigs.CLIENT_CLEAN_RESOURCES))
                .isEqualTo("100");
        assertThat(configured.getProperty("hazelcast.client.heartbeat.interval"))
                .isEqualTo("2000");
    }

    @Test
    void aClientWaitsASecondForACallsBackupsUnlessTheSharedPropertiesSayOtherwise() {
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        assertThat(HazelcastConfigs.sharedClient(shared, null).getProperty(HazelcastConfigs.CLIENT_BACKUP_TIMEOUT))
                .isEqualTo("1000");

        shared.getProperties().put(HazelcastConfigs.CLIENT_BACKUP_TIMEOUT, "5000");
        assertThat(HazelcastConfigs.sharedClient(shared, null).getProperty(HazelcastConfigs.CLIENT_BACKUP_TIMEOUT))
                .isEqualTo("5000");
    }

    @Test
    void membersCompleteRemoteCallsOnTheirIoThreadsUnlessTheServiceSaysOtherwise() {
        Config service =
                HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of());
        Config shared = HazelcastConfigs.sharedMember(new SagaflowHazelcastProperties.Shared(), null);
        assertThat(service.getProperty(HazelcastConfigs.RESPONSE_THREAD_COUNT)).isEqualTo("0");
        assertThat(shared.getProperty(HazelcastConfigs.RESPONSE_THREAD_COUNT)).isEqualTo("0");

        SagaflowHazelcastProperties.Service threaded = new SagaflowHazelcastProperties.Service();
        threaded.getProperties().put(HazelcastConfigs.RESPONSE_THREAD_COUNT, "2");
        assertThat(HazelcastConfigs.serviceMember("order-service", threaded, Map.of())
                        .getProperty(HazelcastConfigs.RESPONSE_THREAD_COUNT))
                .isEqualTo("2");
    }

    @Test
    void aServiceClusterHas71PartitionsTheSharedCluster271() {
        assertThat(HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of())
                        .getProperty("hazelcast.partition.count"))
                .isEqualTo("71");
        assertThat(HazelcastConfigs.sharedMember(new SagaflowHazelcastProperties.Shared(), null)
                        .getProperty("hazelcast.partition.count"))
                .isEqualTo("271");
    }

    @Test
    void serviceMembersMigrateAPartitionWholeUnlessTheServiceSaysOtherwise() {
        assertThat(HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of())
                        .getProperty("hazelcast.partition.migration.fragments.enabled"))
                .isEqualTo("false");

        SagaflowHazelcastProperties.Service fragmented = new SagaflowHazelcastProperties.Service();
        fragmented.getProperties().put("hazelcast.partition.migration.fragments.enabled", "true");
        assertThat(HazelcastConfigs.serviceMember("order-service", fragmented, Map.of())
                        .getProperty("hazelcast.partition.migration.fragments.enabled"))
                .isEqualTo("true");
        assertThat(HazelcastConfigs.sharedMember(new SagaflowHazelcastProperties.Shared(), null)
                        .getProperty("hazelcast.partition.migration.fragments.enabled"))
                .isNull();
    }

    @Test
    void membersRunNoHealthMonitorUnlessTheServiceAsksForIt() {
        Config service =
                HazelcastConfigs.serviceMember("order-service", new SagaflowHazelcastProperties.Service(), Map.of());
        Config shared = HazelcastConfigs.sharedMember(new SagaflowHazelcastProperties.Shared(), null);
        assertThat(service.getProperty(HazelcastConfigs.HEALTH_MONITORING_LEVEL))
                .isEqualTo("OFF");
        assertThat(shared.getProperty(HazelcastConfigs.HEALTH_MONITORING_LEVEL)).isEqualTo("OFF");

        SagaflowHazelcastProperties.Service monitored = new SagaflowHazelcastProperties.Service();
        monitored.getProperties().put(HazelcastConfigs.HEALTH_MONITORING_LEVEL, "NOISY");
        assertThat(HazelcastConfigs.serviceMember("order-service", monitored, Map.of())
                        .getProperty(HazelcastConfigs.HEALTH_MONITORING_LEVEL))
                .isEqualTo("NOISY");
    }

    @Test
    void everyMapIsBoundedByDefaultAndNamedMapsByTheirOwnLimits() {
        Config config = HazelcastConfigs.serviceMember(
                "order-service",
                new SagaflowHazelcastProperties.Service(),
                Map.of("sagaflow.orders", new MapLimits(50_000, Duration.ofHours(1), 1)));

        var anyMap = config.getMapConfig("some-map-nobody-configured");
        assertThat(anyMap.getEvictionConfig().getEvictionPolicy()).isEqualTo(EvictionPolicy.LRU);
        assertThat(anyMap.getEvictionConfig().getSize()).isEqualTo(10_000);
        var orders = config.getMapConfig("sagaflow.orders");
        assertThat(orders.getEvictionConfig().getSize()).isEqualTo(50_000);
        assertThat(orders.getTimeToLiveSeconds()).isEqualTo(3_600);
        // Lease maps hold one entry per slot by construction and must never lose one to eviction.
        assertThat(config.getMapConfig(HazelcastNames.OUTBOX_LEASES)
                        .getEvictionConfig()
                        .getEvictionPolicy())
                .isEqualTo(EvictionPolicy.NONE);
    }

    @Test
    void sharedMemberBoundsTheTopicRingbuffersAndBlocksRatherThanOverwrite() {
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();

        Config config = HazelcastConfigs.sharedMember(shared, null);

        // Hazelcast looks the settings of reliable topic t's ringbuffer (_hz_rb_t) up under t.
        var ringbuffer = config.findRingbufferConfig("sagaflow.events.order.3");
        assertThat(ringbuffer.getCapacity()).isEqualTo(10_000);
        assertThat(ringbuffer.getTimeToLiveSeconds()).isEqualTo(30);
        assertThat(ringbuffer.getBackupCount()).isEqualTo(1);
        assertThat(config.getReliableTopicConfig("sagaflow.events.order.3").getTopicOverloadPolicy())
                .isEqualTo(TopicOverloadPolicy.BLOCK);
        assertThat(config.getJetConfig().isEnabled()).isFalse();
    }

    @Test
    void theTopicRingbuffersKeepAsManyBackupsAsTheSharedPropertiesSay() {
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        shared.getTopic().setBackupCount(0);

        Config config = HazelcastConfigs.sharedMember(shared, null);

        assertThat(config.findRingbufferConfig("sagaflow.events.payment.0").getBackupCount())
                .isZero();
        assertThat(config.findRingbufferConfig("sagaflow.events.payment.0").getAsyncBackupCount())
                .isZero();
        assertThatThrownBy(() -> shared.getTopic().setBackupCount(7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 to 6");
    }
}
