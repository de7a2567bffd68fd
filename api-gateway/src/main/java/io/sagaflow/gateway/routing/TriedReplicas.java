package io.sagaflow.gateway.routing;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.client.loadbalancer.Response;

/**
 * The replicas each request was sent to (ADR 0076): a request sent again ({@code RetryReads}, {@code
 * RetryUnsentWrites}, {@code RetryKeyedWrites}) goes to a replica it has not been sent to yet, while there is one.
 * Without it the load balancer's turn, moved on by every other request meanwhile, could send it back to the replica
 * that just failed it: a replica that stops gracefully closes the connections it holds for a moment before it refuses
 * new ones, and a keyed order could meet it on all three attempts.
 *
 * <p>The replicas are kept in the request's own attributes, which the load balancer's request carries; nothing is kept
 * here once the request is answered.
 */
public final class TriedReplicas implements ProxyCallLifecycle {

    /** The request attribute that holds the replicas the request was sent to. */
    static final String ATTRIBUTE = TriedReplicas.class.getName() + ".sentTo";

    /**
     * Of {@code instances}, those {@code request} was not sent to yet; all of them if it was sent to each, or if the
     * request carries no attributes.
     */
    public List<ServiceInstance> untried(List<ServiceInstance> instances, Request<?> request) {
        Set<String> tried = tried(request);
        if (tried == null || tried.isEmpty()) {
            return instances;
        }
        List<ServiceInstance> untried = instances.stream()
                .filter(instance -> !tried.contains(UnreachableReplicas.key(instance)))
                .toList();
        return untried.isEmpty() ? instances : untried;
    }

    /**
     * Makes a request's attempts share the set of replicas it was sent to: each attempt may go out as a copy of the
     * request (one that holds its body to send again), and a copy's attributes are its own, but the set in them is
     * this one. Called by the retrying filters before the first attempt.
     */
    static void track(Map<String, Object> attributes) {
        attributes.putIfAbsent(ATTRIBUTE, new LinkedHashSet<String>());
    }

    /** Notes the replica chosen for this attempt of a request that may be sent again ({@link #track}). */
    @Override
    public void onStartRequest(Request<RequestDataContext> request, Response<ServiceInstance> chosen) {
        Set<String> tried = tried(request);
        if (tried != null && chosen != null && chosen.hasServer()) {
            tried.add(UnreachableReplicas.key(chosen.getServer()));
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> tried(Request<?> request) {
        if (request == null
                || !(request.getContext() instanceof RequestDataContext context)
                || context.getClientRequest() == null) {
            return null;
        }
        Map<String, Object> attributes = context.getClientRequest().getAttributes();
        if (attributes == null) {
            return null;
        }
        return (Set<String>) attributes.get(ATTRIBUTE);
    }
}
