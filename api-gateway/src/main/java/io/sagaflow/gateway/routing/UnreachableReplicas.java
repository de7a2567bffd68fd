package io.sagaflow.gateway.routing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.ResponseData;

/**
 * The replicas the gateway could not connect to lately (ADR 0012): each is left out of its service's load balancing
 * for a pause, so that requests go to the replicas that answer instead of failing on, or being retried past, one that
 * stopped. A replica that cannot be reached refuses connections at once, so finding it out costs one attempt, which
 * {@code RetryReads}, {@code RetryUnsentWrites} and {@code RetryKeyedWrites} send on. After the pause it is tried
 * again; if it is still down the first request to reach it leaves it out anew. When every replica of a service is
 * left out, all are offered: a request that might fail is better than one that cannot succeed.
 *
 * <p>Only a failed connection counts: it says the replica is not there, and nothing was sent to it. A connection
 * closed under a request, a time-out or a 5xx can have other causes, and a breaker per service already covers a
 * service that fails as a whole.
 */
public final class UnreachableReplicas implements ProxyCallLifecycle {

    private final Duration pause;
    private final Clock clock;
    private final Map<String, Instant> leftOutUntil = new ConcurrentHashMap<>();

    public UnreachableReplicas(Duration pause, Clock clock) {
        this.pause = pause;
        this.clock = clock;
    }

    /** The instances of one service that may be chosen now: those not left out, or all if none is left. */
    public List<ServiceInstance> reachable(List<ServiceInstance> instances) {
        if (leftOutUntil.isEmpty()) {
            return instances;
        }
        Instant now = clock.instant();
        List<ServiceInstance> reachable = instances.stream()
                .filter(instance -> !leftOut(key(instance), now))
                .toList();
        return reachable.isEmpty() ? instances : reachable;
    }

    /** Leaves {@code instance} out for the pause from now. */
    public void unreachable(ServiceInstance instance) {
        if (!pause.isZero()) {
            leftOutUntil.put(key(instance), clock.instant().plus(pause));
        }
    }

    /** Forgets every replica left out (tests). */
    public void clear() {
        leftOutUntil.clear();
    }

    private boolean leftOut(String key, Instant now) {
        Instant until = leftOutUntil.get(key);
        if (until == null) {
            return false;
        }
        if (now.isBefore(until)) {
            return true;
        }
        leftOutUntil.remove(key, until);
        return false;
    }

    /** How a replica is known here, in {@link TriedReplicas} and in {@link ReadyReplicas}: service, host and port. */
    static String key(ServiceInstance instance) {
        return instance.getServiceId() + "@" + instance.getHost() + ":" + instance.getPort();
    }

    /** A call that failed because the chosen replica could not be reached leaves that replica out. */
    @Override
    public void onComplete(CompletionContext<ResponseData, ServiceInstance, RequestDataContext> completion) {
        Response<ServiceInstance> chosen = completion.getLoadBalancerResponse();
        if (completion.status() == CompletionContext.Status.FAILED
                && chosen != null
                && chosen.hasServer()
                && completion.getThrowable() != null
                && UpstreamFailures.isUnreachable(completion.getThrowable())) {
            unreachable(chosen.getServer());
        }
    }
}
