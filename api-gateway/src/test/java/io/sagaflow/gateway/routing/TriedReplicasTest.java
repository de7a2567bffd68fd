package io.sagaflow.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.gateway.support.StaticDiscovery;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.DefaultRequest;
import org.springframework.cloud.client.loadbalancer.DefaultResponse;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.RequestData;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.loadbalancer.core.RoundRobinLoadBalancer;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.ServiceInstanceListSuppliers;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.util.LinkedMultiValueMap;

class TriedReplicasTest {

    private static final ServiceInstance FIRST = new DefaultServiceInstance("o-1", "order", "127.0.0.1", 8083, false);
    private static final ServiceInstance SECOND = new DefaultServiceInstance("o-2", "order", "127.0.0.1", 8183, false);
    private static final List<ServiceInstance> BOTH = List.of(FIRST, SECOND);

    private final TriedReplicas tried = new TriedReplicas();
    private final UnreachableReplicas unreachable = new UnreachableReplicas(Duration.ofSeconds(5), Clock.systemUTC());
    /** Never probes: every replica counts as ready. */
    private final ReadyReplicas ready = new ReadyReplicas(
            StaticDiscovery.of("order", FIRST, SECOND),
            List.of("order"),
            HttpClient::newHttpClient,
            Duration.ZERO,
            Duration.ofSeconds(1),
            3,
            Duration.ofSeconds(10));

    @Test
    void aRequestSentAgainGoesToAReplicaItWasNotSentTo_andToAnyOnceItWasSentToEach() {
        Request<RequestDataContext> request = request();
        assertThat(tried.untried(BOTH, request)).containsExactly(FIRST, SECOND);

        tried.onStartRequest(request, new DefaultResponse(FIRST));
        assertThat(tried.untried(BOTH, request)).containsExactly(SECOND);

        tried.onStartRequest(request, new DefaultResponse(SECOND));
        assertThat(tried.untried(BOTH, request)).containsExactly(FIRST, SECOND);
    }

    @Test
    void eachRequestKeepsItsOwn_andOneWithoutAttributesIsSentAnywhere() {
        Request<RequestDataContext> sentOnce = request();
        tried.onStartRequest(sentOnce, new DefaultResponse(FIRST));

        assertThat(tried.untried(BOTH, request())).containsExactly(FIRST, SECOND);
        assertThat(tried.untried(BOTH, new DefaultRequest<>())).containsExactly(FIRST, SECOND);
        assertThat(sentOnce.getContext().getClientRequest().getAttributes()).containsKey(TriedReplicas.ATTRIBUTE);
    }

    @Test
    void theLoadBalancersTurnNeverSendsARequestBackToTheReplicaThatJustFailedIt() {
        ServiceInstanceListSupplier replicas = new ReachableReplicasConfiguration.Reachable(
                ServiceInstanceListSuppliers.from("order", FIRST, SECOND), ready, unreachable, tried);
        RoundRobinLoadBalancer balancer = new RoundRobinLoadBalancer(
                new StaticListableBeanFactory(Map.of("replicas", replicas))
                        .getBeanProvider(ServiceInstanceListSupplier.class),
                "order");

        for (int i = 0; i < 10; i++) {
            Request<RequestDataContext> request = request();
            ServiceInstance first = choose(balancer, request);
            // Another request takes the next turn meanwhile: without the rule, this one's next turn is the same
            // replica.
            choose(balancer, request());
            ServiceInstance again = choose(balancer, request);

            assertThat(again).isNotEqualTo(first);
        }
    }

    @Test
    void aReplicaLeftOutAsUnreachableStaysOut_evenIfTheOtherWasTried() {
        ServiceInstanceListSupplier replicas = new ReachableReplicasConfiguration.Reachable(
                ServiceInstanceListSuppliers.from("order", FIRST, SECOND), ready, unreachable, tried);
        Request<RequestDataContext> request = request();
        tried.onStartRequest(request, new DefaultResponse(FIRST));
        unreachable.unreachable(SECOND);

        assertThat(replicas.get(request).blockFirst()).containsExactly(FIRST);
    }

    private ServiceInstance choose(RoundRobinLoadBalancer balancer, Request<RequestDataContext> request) {
        ServiceInstance chosen = balancer.choose(request).block().getServer();
        tried.onStartRequest(request, new DefaultResponse(chosen));
        return chosen;
    }

    private static Request<RequestDataContext> request() {
        Map<String, Object> attributes = new HashMap<>();
        TriedReplicas.track(attributes); // as the retrying filters do
        return new DefaultRequest<>(new RequestDataContext(new RequestData(
                HttpMethod.POST,
                URI.create("http://order/api/orders"),
                new HttpHeaders(),
                new LinkedMultiValueMap<>(),
                attributes)));
    }
}
