package io.sagaflow.gateway.routing;

import java.util.List;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Flux;

/**
 * The replicas each service's load balancer chooses from: the configured ones ({@code
 * spring.cloud.discovery.client.simple.instances}) less those that said they are not ready ({@link ReadyReplicas}),
 * less those {@link UnreachableReplicas} leaves out, and, for a
 * request sent again, less those it was sent to already ({@link TriedReplicas}). Used as the
 * default configuration of every load-balancer client's own context (not a {@code @Configuration} of the
 * application's: its supplier must be built in each client's context, which names the service).
 */
class ReachableReplicasConfiguration {

    @Bean
    ServiceInstanceListSupplier reachableReplicas(
            ConfigurableApplicationContext context,
            ReadyReplicas ready,
            UnreachableReplicas unreachable,
            TriedReplicas tried) {
        // No cache: the configured list is in memory already (spring.cloud.loadbalancer.cache.enabled: false).
        ServiceInstanceListSupplier configured = ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .build(context);
        return new Reachable(configured, ready, unreachable, tried);
    }

    /** The delegate's instances, filtered at every choice. */
    static final class Reachable extends DelegatingServiceInstanceListSupplier {

        private final ReadyReplicas ready;
        private final UnreachableReplicas unreachable;
        private final TriedReplicas tried;

        Reachable(
                ServiceInstanceListSupplier delegate,
                ReadyReplicas ready,
                UnreachableReplicas unreachable,
                TriedReplicas tried) {
            super(delegate);
            this.ready = ready;
            this.unreachable = unreachable;
            this.tried = tried;
        }

        @Override
        public Flux<List<ServiceInstance>> get() {
            return delegate.get().map(this::offered);
        }

        @Override
        public Flux<List<ServiceInstance>> get(Request request) {
            return delegate.get(request).map(instances -> tried.untried(offered(instances), request));
        }

        private List<ServiceInstance> offered(List<ServiceInstance> instances) {
            return unreachable.reachable(ready.ready(instances));
        }
    }
}
