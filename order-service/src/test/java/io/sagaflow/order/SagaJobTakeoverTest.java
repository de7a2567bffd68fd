package io.sagaflow.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.spi.properties.ClusterProperty;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How often a new master of the order cluster looks for the saga job to take over is a setting (ADR 0072). */
class SagaJobTakeoverTest {

    private final OrderServiceConfiguration configuration = new OrderServiceConfiguration();

    @Test
    void theScanPeriodBecomesJetsJobScanPeriod() {
        Config config = new Config();

        configuration.sagaJobTakeover(Duration.ofMillis(1_500)).customize(config);

        assertThat(config.getProperty(ClusterProperty.JOB_SCAN_PERIOD.getName()))
                .isEqualTo("1500");
    }

    @Test
    void aPeriodShorterThanHazelcastTakesIsRefused() {
        assertThatThrownBy(() -> configuration.sagaJobTakeover(Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job-scan-period")
                .hasMessageContaining("100 ms");
        assertThat(configuration.sagaJobTakeover(Duration.ofMillis(100))).isNotNull();
    }
}
