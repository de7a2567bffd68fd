package io.sagaflow.order;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.properties.ClusterProperty;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.test.SagaflowIntegrationTest;
import io.sagaflow.framework.test.ServiceHealthContract;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@SagaflowIntegrationTest
class OrderServiceApplicationIT extends ServiceHealthContract {

    @Autowired
    @ServiceCluster
    HazelcastInstance member;

    @Test
    void aNewMasterLooksForTheSagaJobEverySecond() {
        assertThat(member.getConfig().getProperty(ClusterProperty.JOB_SCAN_PERIOD.getName()))
                .isEqualTo("1000");
    }

    @Test
    void theMasterLeavesAJoinedReplicaToRestartTheSagaJobItself_forFiveMinutes() {
        assertThat(member.getConfig().getJetConfig().getScaleUpDelayMillis()).isEqualTo(300_000);
    }
}
