package io.sagaflow.gateway.support;

import java.util.List;
import java.util.Map;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/** A discovery client that knows the instances it was given, for tests without a Spring context. */
public record StaticDiscovery(Map<String, List<ServiceInstance>> instances) implements DiscoveryClient {

    /** The instances of one service. */
    public static StaticDiscovery of(String service, ServiceInstance... instances) {
        return new StaticDiscovery(Map.of(service, List.of(instances)));
    }

    @Override
    public String description() {
        return "static instances of a test";
    }

    @Override
    public List<ServiceInstance> getInstances(String serviceId) {
        return instances.getOrDefault(serviceId, List.of());
    }

    @Override
    public List<String> getServices() {
        return List.copyOf(instances.keySet());
    }
}
