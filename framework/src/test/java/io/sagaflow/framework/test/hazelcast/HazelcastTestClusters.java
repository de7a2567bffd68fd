package io.sagaflow.framework.test.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Creates clusters of real Hazelcast members in this JVM, on 127.0.0.1, with a random cluster name and port range,
 * few partitions and no join wait: a member starts in well under a second. Close it to shut every member down.
 */
public final class HazelcastTestClusters implements AutoCloseable {

    /** Properties that make members start and join fast in tests. */
    public static final Map<String, String> FAST_JOIN = Map.of(
            "hazelcast.wait.seconds.before.join", "0",
            "hazelcast.max.wait.seconds.before.join", "0");

    private final List<HazelcastInstance> instances = new ArrayList<>();

    /** A new, empty service cluster: its members share a random name and port range. */
    public ServiceClusterSpec newServiceCluster() {
        int port = randomPortBase();
        SagaflowHazelcastProperties.Service service = new SagaflowHazelcastProperties.Service();
        service.setPort(port);
        service.setPortCount(10);
        service.setBindInterface("127.0.0.1");
        service.setMembers(List.of("127.0.0.1"));
        service.setPartitionCount(11);
        service.setJetCooperativeThreads(1);
        service.getProperties().putAll(FAST_JOIN);
        return new ServiceClusterSpec("test-" + UUID.randomUUID(), service);
    }

    /** A new shared cluster configuration (embedded mode) with a random name and port range. */
    public SagaflowHazelcastProperties.Shared newSharedCluster() {
        int port = randomPortBase();
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        shared.setClusterName("shared-" + UUID.randomUUID());
        shared.setPort(port);
        shared.setPortCount(10);
        shared.setBindInterface("127.0.0.1");
        shared.setMembers(List.of("127.0.0.1"));
        shared.setAddresses(List.of("127.0.0.1:" + port));
        shared.setPartitionCount(11);
        shared.getProperties().putAll(FAST_JOIN);
        return shared;
    }

    /** Starts a member of {@code spec}'s cluster. */
    public HazelcastInstance startMember(ServiceClusterSpec spec) {
        return start(HazelcastConfigs.serviceMember(spec.clusterName(), spec.service(), Map.of()));
    }

    /** Starts a member of {@code spec}'s cluster with a service's customizers applied, as the application does. */
    public HazelcastInstance startMember(ServiceClusterSpec spec, ServiceClusterCustomizer... customizers) {
        Config config = HazelcastConfigs.serviceMember(spec.clusterName(), spec.service(), Map.of());
        for (ServiceClusterCustomizer customizer : customizers) {
            customizer.customize(config);
        }
        return start(config);
    }

    /** Starts a member of the shared cluster {@code shared}. */
    public HazelcastInstance startSharedMember(SagaflowHazelcastProperties.Shared shared) {
        HazelcastInstance member = start(HazelcastConfigs.sharedMember(shared, null));
        // The member takes the next free port of its range when another test's member holds the first: clients then
        // connect to the port it took, not to another cluster's member on the first (a client of the wrong cluster
        // retried for ever once).
        int port = member.getCluster().getLocalMember().getAddress().getPort();
        shared.setAddresses(List.of("127.0.0.1:" + port));
        return member;
    }

    private synchronized HazelcastInstance start(Config config) {
        HazelcastInstance instance = Hazelcast.newHazelcastInstance(config);
        instances.add(instance);
        return instance;
    }

    /** Kills {@code member} without a graceful leave, as a crashed replica would. */
    public void kill(HazelcastInstance member) {
        member.getLifecycleService().terminate();
    }

    @Override
    public synchronized void close() {
        instances.forEach(instance -> instance.getLifecycleService().terminate());
        instances.clear();
    }

    /**
     * The first of ten ports for a test cluster: below the kernel's ephemeral range (32768+), where the random HTTP
     * ports of tests and the outgoing connections live, so a member never takes a port someone else was given.
     */
    public static int randomPortBase() {
        return 10_000 + ThreadLocalRandom.current().nextInt(2_270) * 10;
    }

    /**
     * What members of one test service cluster share.
     *
     * @param clusterName the cluster's name
     * @param service its member settings
     */
    public record ServiceClusterSpec(String clusterName, SagaflowHazelcastProperties.Service service) {}
}
