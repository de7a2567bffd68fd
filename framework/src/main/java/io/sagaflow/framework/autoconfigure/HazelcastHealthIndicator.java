package io.sagaflow.framework.autoconfigure;

import com.hazelcast.core.HazelcastInstance;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP while both Hazelcast connections of this replica are running and, for members, the local member is in a safe
 * state (its partitions have their backups); part of the readiness group, so traffic waits for a joined member.
 */
final class HazelcastHealthIndicator extends AbstractHealthIndicator {

    private final HazelcastInstance service;
    private final HazelcastInstance shared;

    HazelcastHealthIndicator(HazelcastInstance service, HazelcastInstance shared) {
        this.service = service;
        this.shared = shared;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean serviceUp = service.getLifecycleService().isRunning();
        boolean sharedUp = shared.getLifecycleService().isRunning();
        builder.status(serviceUp && sharedUp ? "UP" : "DOWN")
                .withDetail("serviceCluster", service.getConfig().getClusterName())
                .withDetail(
                        "serviceMembers",
                        serviceUp ? service.getCluster().getMembers().size() : 0)
                .withDetail("sharedCluster", shared.getConfig().getClusterName())
                .withDetail("sharedRunning", sharedUp);
    }
}
