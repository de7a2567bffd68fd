package io.sagaflow.sharedcluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.RestEndpointGroup;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Shared;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.SimpleCommandLinePropertySource;

/**
 * One member of the shared cluster (the event topic's ringbuffers) as a process of its own, for the local stack: the
 * services connect to it as clients, as they connect to the shared cluster's StatefulSet in Kubernetes (ADR 0039).
 *
 * <p>It takes the services' own settings, {@code --sagaflow.hazelcast.shared.*} (port, member list, topic shards,
 * capacity and time-to-live), so the topic it holds is configured exactly as an in-process shared member's; other
 * arguments are ignored, so the same list can be given to every process of the stack. Readiness: Hazelcast's health
 * check on the member port, {@code GET /hazelcast/health/ready}, as the chart's probes ask it.
 */
public final class SharedClusterMember {

    private SharedClusterMember() {}

    public static void main(String[] args) {
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config(args));
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("shutdown").unstarted(() -> {
                    // Graceful: with other members, the partitions move to them before this one leaves.
                    member.shutdown();
                }));
    }

    /** The member's configuration from {@code --sagaflow.hazelcast.shared.*} arguments. */
    static Config config(String... args) {
        Shared shared = settings(args).getShared();
        Config config = HazelcastConfigs.sharedMember(shared, null);
        config.getNetworkConfig()
                .getRestApiConfig()
                .setEnabled(true)
                .disableAllGroups()
                .enableGroups(RestEndpointGroup.HEALTH_CHECK);
        return config;
    }

    static SagaflowHazelcastProperties settings(String... args) {
        Binder binder = new Binder(ConfigurationPropertySources.from(new SimpleCommandLinePropertySource(args)));
        return binder.bindOrCreate("sagaflow.hazelcast", Bindable.of(SagaflowHazelcastProperties.class));
    }
}
