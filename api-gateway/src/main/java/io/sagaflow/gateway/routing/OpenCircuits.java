package io.sagaflow.gateway.routing;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers when each circuit breaker opened, so a 503 can tell the client how long the breaker will stay open:
 * Resilience4j lets a trial call through only after its wait duration in the open state.
 */
public final class OpenCircuits {

    private final CircuitBreakerRegistry registry;
    private final Clock clock;
    private final Map<String, Instant> openedAt = new ConcurrentHashMap<>();

    public OpenCircuits(CircuitBreakerRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        registry.getAllCircuitBreakers().forEach(this::watch);
        registry.getEventPublisher()
                .onEntryAdded(added -> watch(added.getAddedEntry()))
                .onEntryReplaced(replaced -> watch(replaced.getNewEntry()));
    }

    /** How long the named breaker stays open from now; zero if it is not open or not known. */
    public Duration openFor(String name) {
        Instant opened = openedAt.get(name);
        var breaker = registry.find(name);
        if (opened == null || breaker.isEmpty() || !isOpen(breaker.get().getState())) {
            return Duration.ZERO;
        }
        long waitMillis = breaker.get()
                .getCircuitBreakerConfig()
                .getWaitIntervalFunctionInOpenState()
                .apply(1);
        Duration left = Duration.between(clock.instant(), opened.plusMillis(waitMillis));
        return left.isNegative() ? Duration.ZERO : left;
    }

    private void watch(CircuitBreaker breaker) {
        breaker.getEventPublisher().onStateTransition(transition -> {
            if (isOpen(transition.getStateTransition().getToState())) {
                openedAt.put(breaker.getName(), transition.getCreationTime().toInstant());
            }
        });
    }

    private static boolean isOpen(CircuitBreaker.State state) {
        return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
    }
}
