package io.sagaflow.framework.hazelcast;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientReliableTopicConfig;
import com.hazelcast.client.properties.ClientProperty;
import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.ReliableTopicConfig;
import com.hazelcast.config.RingbufferConfig;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.topic.TopicOverloadPolicy;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Member;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Service;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Shared;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.Topic;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;

/** Builds the Hazelcast configurations from {@link SagaflowHazelcastProperties}; used by the auto-configuration. */
public final class HazelcastConfigs {

    static final String JET_IDLE_COOPERATIVE_MAX = "hazelcast.jet.idle.cooperative.max.microseconds";
    static final String JET_IDLE_NONCOOPERATIVE_MAX = "hazelcast.jet.idle.noncooperative.max.microseconds";
    /** The longest an idle cooperative Jet thread sleeps between rounds (ADR 0016, ADR 0056). */
    static final String JET_IDLE_COOPERATIVE_MAX_MICROSECONDS = "50000";
    /** The longest an idle non-cooperative Jet thread sleeps between rounds (ADR 0016). */
    static final String JET_IDLE_NONCOOPERATIVE_MAX_MICROSECONDS = "20000";
    /** How often a client looks for calls whose backups never answered; Hazelcast's 100 ms by default (ADR 0056). */
    static final String CLIENT_CLEAN_RESOURCES = "hazelcast.client.internal.clean.resources.millis";
    /** How long a client waits for a call's backups before it completes the call anyway; 5 s by default (ADR 0092). */
    static final String CLIENT_BACKUP_TIMEOUT = ClientProperty.OPERATION_BACKUP_TIMEOUT_MILLIS.getName();
    /** A member's periodic health report in its log; off unless the service sets it (ADR 0034). */
    static final String HEALTH_MONITORING_LEVEL = "hazelcast.health.monitoring.level";
    /** Threads that complete remote calls; 0 leaves that to the I/O thread that read the response (ADR 0030). */
    static final String RESPONSE_THREAD_COUNT = ClusterProperty.RESPONSE_THREAD_COUNT.getName();
    /** The same for a client: 0 completes its calls on the I/O thread that read the response (ADR 0030, ADR 0068). */
    static final String CLIENT_RESPONSE_THREAD_COUNT = ClientProperty.RESPONSE_THREAD_COUNT.getName();
    /** Whether a partition migrates in one round trip per map (Hazelcast's default) or whole (ADR 0073). */
    static final String FRAGMENTED_MIGRATION = ClusterProperty.PARTITION_FRAGMENTED_MIGRATION_ENABLED.getName();

    private HazelcastConfigs() {}

    /** The embedded member of the service's own cluster, with Jet enabled and every map bounded. */
    public static Config serviceMember(String clusterName, Service service, Map<String, MapLimits> maps) {
        Config config = member(clusterName, service);
        config.setProperty(
                "hazelcast.graceful.shutdown.max.wait",
                Long.toString(service.getGracefulShutdownTimeout().toSeconds()));
        if (service.getJoin() == SagaflowHazelcastProperties.Join.KUBERNETES) {
            JoinConfig join = config.getNetworkConfig().getJoin();
            join.getTcpIpConfig().setEnabled(false);
            join.getKubernetesConfig()
                    .setEnabled(true)
                    .setProperty("service-dns", service.getKubernetes().getServiceDns())
                    .setProperty(
                            "service-port",
                            Integer.toString(service.getKubernetes().getServicePort()));
        }
        config.getJetConfig().setEnabled(true).setResourceUploadEnabled(false);
        // An idle cooperative Jet thread sleeps up to 50 ms between rounds instead of Hazelcast's 0.5 ms, a
        // non-cooperative one up to 20 ms instead of 5. The saga job keeps the order service's two cooperative
        // threads polling; at 50 ms they wake 40 times a second together, and the first saga message after a quiet
        // spell waits up to 50 ms for them. Under load they seldom sleep that long (ADR 0016, ADR 0056).
        Map.of(
                        JET_IDLE_COOPERATIVE_MAX, JET_IDLE_COOPERATIVE_MAX_MICROSECONDS,
                        JET_IDLE_NONCOOPERATIVE_MAX, JET_IDLE_NONCOOPERATIVE_MAX_MICROSECONDS)
                .forEach((idleMax, micros) -> {
                    if (config.getProperty(idleMax) == null) {
                        config.setProperty(idleMax, micros);
                    }
                });
        // A partition migrates whole, in one operation, instead of in one round trip per map: a dozen maps in the order
        // service, each fragment sent only when the last one was answered. A stopping member then hands its
        // partitions over in a third of the time, and the saga job, which Jet starts again only after the member has
        // left, waits that much less. The services' partitions hold caches and in-flight messages: small (ADR 0073).
        if (config.getProperty(FRAGMENTED_MIGRATION) == null) {
            config.setProperty(FRAGMENTED_MIGRATION, "false");
        }
        // Jet sends its flow control every period from the member's scheduler, which hands the task to a cached
        // thread: two wake-ups each time, also with no job or no distributed edge (ADR 0057).
        config.getJetConfig()
                .setFlowControlPeriodMs(
                        Math.toIntExact(service.getJetFlowControlPeriod().toMillis()));
        if (service.getJetCooperativeThreads() > 0) {
            config.getJetConfig().setCooperativeThreadCount(service.getJetCooperativeThreads());
        }
        // A relay's wake-up is a short task that only releases a semaphore: one thread at a time suffices (ADR 0035).
        config.addExecutorConfig(
                new ExecutorConfig(HazelcastNames.OUTBOX_WAKEUPS).setPoolSize(1).setStatisticsEnabled(false));
        config.addMapConfig(mapConfig("default", service.getDefaultMap()));
        config.addMapConfig(mapConfig(HazelcastNames.LEASE_MAPS, new MapLimits(0, Duration.ZERO, 1)));
        maps.forEach((name, limits) -> config.addMapConfig(mapConfig(name, limits)));
        return config;
    }

    /** An in-process member of the shared cluster (local mode), holding the sharded event topic. */
    public static Config sharedMember(Shared shared, Executor listenerExecutor) {
        Config config = member(shared.getClusterName(), shared);
        config.getJetConfig().setEnabled(false);
        config.addMapConfig(mapConfig("default", new MapLimits(1_000, Duration.ZERO, 1)));
        addTopic(config, shared.getTopic(), listenerExecutor);
        return config;
    }

    /** A member that listens on its port range and joins the TCP member list; callers may switch the join. */
    private static Config member(String clusterName, Member member) {
        HazelcastAsyncCallbacks.bound();
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setInstanceName(clusterName + "-" + UUID.randomUUID());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // Hazelcast's own metrics are collected every 5 s for Management Center and JMX, neither of which we run; the
        // services report through Micrometer (ADR 0005).
        config.getMetricsConfig().setEnabled(false);
        // The health monitor wakes every 20 s and logs a long line whenever the used heap passes 70 % of the maximum,
        // which with the serial collector and heaps of twice the live set (ADR 0026) is most of the time: garbage not
        // collected yet counts as used. The JVM's own meters report the heap through Micrometer (ADR 0034).
        config.setProperty(HEALTH_MONITORING_LEVEL, "OFF");
        config.setProperty("hazelcast.partition.count", Integer.toString(member.getPartitionCount()));
        config.setProperty("hazelcast.tcp.join.port.try.count", Integer.toString(member.getPortCount()));
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(member.getPort()).setPortAutoIncrement(true).setPortCount(member.getPortCount());
        String bindInterface = member.getBindInterface();
        if (bindInterface != null && !bindInterface.isBlank()) {
            network.getInterfaces().setEnabled(true).addInterface(bindInterface);
        }
        JoinConfig join = network.getJoin();
        join.getAutoDetectionConfig().setEnabled(false);
        join.getMulticastConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(member.getMembers());
        // The I/O thread that reads a response completes its call, instead of queueing it for one of two response
        // threads that must first get a core (ADR 0030). Callbacks still run on the async executor.
        config.setProperty(RESPONSE_THREAD_COUNT, "0");
        member.getProperties().forEach(config::setProperty);
        return config;
    }

    /**
     * The ringbuffers and reliable topics of the event topic's shards, for a shared cluster member. An external shared
     * cluster needs the same settings (the Helm chart renders them).
     *
     * <p>The ringbuffer behind reliable topic {@code t} is named {@code _hz_rb_t}, but Hazelcast looks its settings up
     * under {@code t}: a ringbuffer config named with the prefix is never used, and the ringbuffers then keep
     * Hazelcast's defaults (no time-to-live: every shard holds its full capacity for ever; ADR 0026).
     */
    public static void addTopic(Config config, Topic topic, Executor listenerExecutor) {
        String shards = topic.getPrefix() + ".*";
        config.addRingBufferConfig(new RingbufferConfig(shards)
                .setCapacity(topic.getCapacity())
                .setTimeToLiveSeconds((int) topic.getTtl().toSeconds())
                .setBackupCount(topic.getBackupCount())
                .setAsyncBackupCount(0));
        ReliableTopicConfig reliable = new ReliableTopicConfig(shards)
                .setTopicOverloadPolicy(TopicOverloadPolicy.BLOCK)
                .setReadBatchSize(64)
                .setStatisticsEnabled(true);
        if (listenerExecutor != null) {
            reliable.setExecutor(listenerExecutor);
        }
        config.addReliableTopicConfig(reliable);
    }

    /**
     * A client of cluster {@code clusterName} as every Sagaflow client starts: no metrics, no phone home, logging through
     * SLF4J. The caller gives the addresses.
     */
    public static ClientConfig client(String clusterName, String instanceName) {
        ClientConfig config = new ClientConfig();
        config.getMetricsConfig().setEnabled(false);
        config.setClusterName(clusterName);
        config.setInstanceName(instanceName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        return config;
    }

    /** A client of an external shared cluster. */
    public static ClientConfig sharedClient(Shared shared, Executor listenerExecutor) {
        HazelcastAsyncCallbacks.bound();
        ClientConfig config = client(shared.getClusterName(), shared.getClusterName() + "-client-" + UUID.randomUUID());
        config.getNetworkConfig().setAddresses(shared.getAddresses());
        // A call whose backups have not answered within 5 s is completed anyway when the client next looks; looking
        // every second instead of every 100 ms makes such a call (a member lost mid-call) up to a second later, and
        // takes 27 of the 32 wake-ups a second of an idle client's threads away (ADR 0056).
        config.setProperty(CLIENT_CLEAN_RESOURCES, "1000");
        // A client is told of a call's backups by the backup replicas themselves, and when a member dies its calls
        // waiting for that member's backups are not told anything: each waits out this time. A member dying under
        // load held every publish of the outbox relay that was in flight, and all the relay's later rows behind it, for
        // 5 s and up to a second more; with 1 s, for up to 2 s. A call whose backup is merely slow completes after the
        // same time as before, without waiting for it; the primary holds the message either way (ADR 0092).
        config.setProperty(CLIENT_BACKUP_TIMEOUT, "1000");
        // By default a client hands a response to one of two response threads whenever it sees calls overlap, which
        // under load is always: one more thread to wake for every publish and every topic read. Its I/O thread
        // completes the call instead, as a member's does (ADR 0030); callbacks still run on the async executor
        // (ADR 0068).
        config.setProperty(CLIENT_RESPONSE_THREAD_COUNT, "0");
        shared.getProperties().forEach(config::setProperty);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(-1);
        ClientReliableTopicConfig reliable = new ClientReliableTopicConfig(
                        shared.getTopic().getPrefix() + ".*")
                .setTopicOverloadPolicy(TopicOverloadPolicy.BLOCK)
                .setReadBatchSize(64);
        if (listenerExecutor != null) {
            reliable.setExecutor(listenerExecutor);
        }
        config.addReliableTopicConfig(reliable);
        return config;
    }

    private static MapConfig mapConfig(String name, MapLimits limits) {
        MapConfig map = new MapConfig(name).setBackupCount(limits.backupCount());
        if (limits.maxEntriesPerMember() > 0) {
            map.setEvictionConfig(new EvictionConfig()
                    .setEvictionPolicy(EvictionPolicy.LRU)
                    .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                    .setSize(limits.maxEntriesPerMember()));
        }
        if (!limits.timeToLive().isZero()) {
            map.setTimeToLiveSeconds((int) limits.timeToLive().toSeconds());
        }
        return map;
    }
}
