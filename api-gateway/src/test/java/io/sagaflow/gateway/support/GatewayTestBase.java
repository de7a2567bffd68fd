package io.sagaflow.gateway.support;

import io.sagaflow.gateway.ApiGatewayApplication;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * One gateway in front of {@link FakeServices}, with small breakers (open when half of the last 4 calls failed, for
 * 2 s), a 1 s time limit and a replica it could not reach left out for 1 s. Its readiness probes are off: its tests pin
 * down what the gateway does when a request meets a stopped or failing replica, which the probes would otherwise often
 * have left out before (ReplicaReadinessIT tests them). Every test class extending it shares the context.
 */
@SpringBootTest(
        classes = ApiGatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "resilience4j.circuitbreaker.configs.default.sliding-window-type=count-based",
            "resilience4j.circuitbreaker.configs.default.sliding-window-size=4",
            "resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=4",
            "resilience4j.circuitbreaker.configs.default.wait-duration-in-open-state=2s",
            "resilience4j.circuitbreaker.configs.default.permitted-number-of-calls-in-half-open-state=1",
            "resilience4j.timelimiter.configs.default.timeout-duration=1s",
            "sagaflow.gateway.health.timeout=500ms",
            "sagaflow.gateway.unreachable-replica-pause=1s",
            "sagaflow.gateway.readiness.interval=0"
        })
public abstract class GatewayTestBase extends FakeServicesTestBase {}
