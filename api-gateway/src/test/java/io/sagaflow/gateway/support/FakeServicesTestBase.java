package io.sagaflow.gateway.support;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.sagaflow.gateway.routing.ReadyReplicas;
import io.sagaflow.gateway.routing.UnreachableReplicas;
import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A gateway test in front of {@link FakeServices}, whatever its settings (the subclass's {@code @SpringBootTest}): the
 * services are registered as the gateway's replicas, and each test leaves them running, the breakers closed and no
 * replica left out.
 */
public abstract class FakeServicesTestBase {

    @LocalServerPort
    protected int port;

    @Autowired
    protected CircuitBreakerRegistry breakers;

    @Autowired
    protected UnreachableReplicas unreachableReplicas;

    @Autowired
    protected ReadyReplicas readyReplicas;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        FakeServices.register(registry);
    }

    @AfterEach
    void leaveEverythingRunning() {
        FakeServices.resetAll();
        breakers.getAllCircuitBreakers().forEach(CircuitBreaker::reset);
        unreachableReplicas.clear();
        readyReplicas.clear();
    }
}
