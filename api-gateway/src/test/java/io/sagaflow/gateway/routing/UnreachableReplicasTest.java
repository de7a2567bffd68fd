package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.DefaultRequest;
import org.springframework.cloud.client.loadbalancer.DefaultResponse;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.client.loadbalancer.ResponseData;
import org.springframework.web.client.ResourceAccessException;

class UnreachableReplicasTest {

    private static final ServiceInstance FIRST = new DefaultServiceInstance("o-1", "order", "127.0.0.1", 8083, false);
    private static final ServiceInstance SECOND = new DefaultServiceInstance("o-2", "order", "127.0.0.1", 8183, false);
    private static final ServiceInstance OTHER = new DefaultServiceInstance("p-1", "payment", "127.0.0.1", 8183, false);

    private final MutableClock clock = new MutableClock();
    private final UnreachableReplicas replicas = new UnreachableReplicas(Duration.ofSeconds(5), clock);

    @Test
    void aReplicaThatCouldNotBeReachedIsLeftOutForThePause() {
        replicas.unreachable(SECOND);

        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST);
        clock.advance(Duration.ofMillis(4_999));
        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST);
        clock.advance(Duration.ofMillis(1));
        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST, SECOND);
    }

    @Test
    void whenEveryReplicaIsLeftOutAllAreOffered() {
        replicas.unreachable(FIRST);
        replicas.unreachable(SECOND);

        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST, SECOND);
    }

    @Test
    void replicasAreTheirServicesOwn_andAPauseOfZeroLeavesNoneOut() {
        replicas.unreachable(OTHER);
        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST, SECOND);

        UnreachableReplicas never = new UnreachableReplicas(Duration.ZERO, clock);
        never.unreachable(SECOND);
        assertThat(never.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST, SECOND);
    }

    @Test
    void onlyAFailedConnectionLeavesTheChosenReplicaOut() {
        replicas.onComplete(failed(SECOND, new ResourceAccessException("closed", new IOException("EOF"))));
        replicas.onComplete(new CompletionContext<ResponseData, ServiceInstance, RequestDataContext>(
                CompletionContext.Status.SUCCESS, new DefaultRequest<>(), new DefaultResponse(FIRST)));
        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST, SECOND);

        replicas.onComplete(failed(SECOND, new ResourceAccessException("refused", new ConnectException("refused"))));
        assertThat(replicas.reachable(List.of(FIRST, SECOND))).containsExactly(FIRST);
    }

    private static CompletionContext<ResponseData, ServiceInstance, RequestDataContext> failed(
            ServiceInstance chosen, Throwable failure) {
        return new CompletionContext<>(
                CompletionContext.Status.FAILED, failure, new DefaultRequest<>(), new DefaultResponse(chosen));
    }

    private static final class MutableClock extends Clock {

        private Instant now = Instant.parse("2026-11-29T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
