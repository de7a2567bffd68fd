package io.sagaflow.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long the order cluster's master waits before it rescales the saga job onto a joined member is a setting (ADR 0075). */
class SagaJobScaleUpTest {

    private final OrderServiceConfiguration configuration = new OrderServiceConfiguration();

    @Test
    void theDelayBecomesJetsScaleUpDelay() {
        Config config = new Config();

        configuration.sagaJobScaleUp(Duration.ofMinutes(5)).customize(config);

        assertThat(config.getJetConfig().getScaleUpDelayMillis()).isEqualTo(300_000);
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> configuration.sagaJobScaleUp(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scale-up-delay");
    }
}
