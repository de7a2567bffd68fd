package io.sagaflow.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How often the order service's member looks for passed saga deadlines is a setting in whole seconds (ADR 0038). */
class DeadlineSweepTest {

    private final OrderServiceConfiguration configuration = new OrderServiceConfiguration();

    @Test
    void theSweepPeriodBecomesTheMembersExpiryTaskPeriod() {
        Config config = new Config();

        configuration.sagaStructures(50_000, Duration.ofSeconds(2)).customize(config);

        assertThat(config.getProperty("hazelcast.internal.map.expiration.task.period.seconds"))
                .isEqualTo("2");
        assertThat(config.getProperty("hazelcast.internal.map.expiration.cleanup.percentage"))
                .isEqualTo("100");
    }

    @Test
    void aSweepOfPartSecondsOrNoneIsRefused() {
        assertThatThrownBy(() -> configuration.sagaStructures(50_000, Duration.ofMillis(1_500)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deadline-sweep");
        assertThatThrownBy(() -> configuration.sagaStructures(50_000, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
