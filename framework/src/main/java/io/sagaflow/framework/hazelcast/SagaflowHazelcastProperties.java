package io.sagaflow.framework.hazelcast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code sagaflow.hazelcast.*}: the service's embedded member and its connection to the shared cluster.
 *
 * <p>Every map is bounded: {@link #getMaps()} sizes named maps (wildcards allowed), and any other map falls under
 * {@link Service#getDefaultMap()}, which evicts.
 */
@ConfigurationProperties("sagaflow.hazelcast")
public class SagaflowHazelcastProperties {

    private final Service service = new Service();
    private final Shared shared = new Shared();
    private final Map<String, MapLimits> maps = new LinkedHashMap<>();

    public Service getService() {
        return service;
    }

    public Shared getShared() {
        return shared;
    }

    public Map<String, MapLimits> getMaps() {
        return maps;
    }

    /** How members find each other. */
    public enum Join {
        /** A fixed member list: local runs and tests. */
        TCP,
        /** Kubernetes DNS lookup of a headless service. */
        KUBERNETES
    }

    /** What every embedded member has: where it listens, whom it joins, how it is partitioned and tuned. */
    public abstract static class Member {

        private int port;
        private int portCount;

        /** Interface to bind to, e.g. 127.0.0.1; empty for all. */
        private String bindInterface = "";

        /** Hosts to try with TCP join; each host is tried on the port range from {@code port}. */
        private List<String> members = new ArrayList<>(List.of("127.0.0.1"));

        /**
         * Partitions of the cluster. Every member must have the same count: a member with another one fails to start,
         * so changing it means stopping every member of the cluster first.
         */
        private int partitionCount;

        /**
         * Raw Hazelcast properties ({@code hazelcast.*}) for tuning, e.g. join wait times. The shared cluster's are
         * given to its client too, when the service is one; each side ignores the properties it does not know.
         */
        private Map<String, String> properties = new LinkedHashMap<>();

        protected Member(int port, int portCount, int partitionCount) {
            this.port = port;
            this.portCount = portCount;
            this.partitionCount = partitionCount;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }

        public int getPortCount() {
            return portCount;
        }

        public void setPortCount(int portCount) {
            this.portCount = portCount;
        }

        public String getBindInterface() {
            return bindInterface;
        }

        public void setBindInterface(String bindInterface) {
            this.bindInterface = bindInterface;
        }

        public List<String> getMembers() {
            return members;
        }

        public void setMembers(List<String> members) {
            this.members = members;
        }

        public int getPartitionCount() {
            return partitionCount;
        }

        public void setPartitionCount(int partitionCount) {
            this.partitionCount = partitionCount;
        }

        public Map<String, String> getProperties() {
            return properties;
        }

        public void setProperties(Map<String, String> properties) {
            this.properties = properties;
        }
    }

    /** The per-service cluster member embedded in every replica (ports 5701 onwards by default). */
    public static class Service extends Member {

        /**
         * A service cluster's partitions: 71, not Hazelcast's 271. It has at most a handful of members (five in the
         * Large tier) and holds caches and messages in flight; each partition a stopping member hands over holds the
         * saga job up longer (ADR 0073).
         */
        public static final int DEFAULT_PARTITION_COUNT = 71;

        /** Cluster name; defaults to {@code spring.application.name}. */
        private String clusterName;

        private Join join = Join.TCP;
        private final Kubernetes kubernetes = new Kubernetes();

        /** Jet cooperative threads; 0 means one per core. */
        private int jetCooperativeThreads = 0;

        /**
         * How often Jet's flow control acknowledges what the receiving ends of distributed edges took; it runs on
         * this period whether or not a job has such an edge. Hazelcast's default is 100 ms; a second grants larger
         * receive windows, not a lower rate, and the saga job's one distributed edge carries messages between members
         * only while partitions migrate (ADR 0057, 0058). A pipeline that must notice a slow receiver sooner wants
         * 100 ms back.
         */
        private Duration jetFlowControlPeriod = Duration.ofSeconds(1);

        /** The limits of any map without its own entry in {@code sagaflow.hazelcast.maps}. */
        private MapLimits defaultMap = new MapLimits(10_000, Duration.ZERO, 1);

        private Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

        public Service() {
            super(5701, 20, DEFAULT_PARTITION_COUNT);
        }

        public String getClusterName() {
            return clusterName;
        }

        public void setClusterName(String clusterName) {
            this.clusterName = clusterName;
        }

        public Join getJoin() {
            return join;
        }

        public void setJoin(Join join) {
            this.join = join;
        }

        public Kubernetes getKubernetes() {
            return kubernetes;
        }

        public int getJetCooperativeThreads() {
            return jetCooperativeThreads;
        }

        public void setJetCooperativeThreads(int jetCooperativeThreads) {
            this.jetCooperativeThreads = jetCooperativeThreads;
        }

        public Duration getJetFlowControlPeriod() {
            return jetFlowControlPeriod;
        }

        public void setJetFlowControlPeriod(Duration jetFlowControlPeriod) {
            this.jetFlowControlPeriod = jetFlowControlPeriod;
        }

        public MapLimits getDefaultMap() {
            return defaultMap;
        }

        public void setDefaultMap(MapLimits defaultMap) {
            this.defaultMap = defaultMap;
        }

        public Duration getGracefulShutdownTimeout() {
            return gracefulShutdownTimeout;
        }

        public void setGracefulShutdownTimeout(Duration gracefulShutdownTimeout) {
            this.gracefulShutdownTimeout = gracefulShutdownTimeout;
        }
    }

    /** Kubernetes DNS discovery of a headless service. */
    public static class Kubernetes {

        /** e.g. {@code order-service-hz.sagaflow.svc.cluster.local}. */
        private String serviceDns = "";

        private int servicePort = 5701;

        public String getServiceDns() {
            return serviceDns;
        }

        public void setServiceDns(String serviceDns) {
            this.serviceDns = serviceDns;
        }

        public int getServicePort() {
            return servicePort;
        }

        public void setServicePort(int servicePort) {
            this.servicePort = servicePort;
        }
    }

    /** The shared cluster that carries events between services; its embedded member uses ports 5801 onwards. */
    public static class Shared extends Member {

        /** Where the shared cluster lives. */
        public enum Mode {
            /** A member runs in this JVM and joins the other services' (laptop, tests). */
            EMBEDDED,
            /** A client connects to an external cluster (Kubernetes). */
            CLIENT
        }

        private Mode mode = Mode.EMBEDDED;
        private String clusterName = "sagaflow-shared";

        /** Client mode: addresses of the shared cluster members. */
        private List<String> addresses = new ArrayList<>(List.of("127.0.0.1:5801"));

        private final Topic topic = new Topic();

        public Shared() {
            // Hazelcast's 271 partitions: the topic's ringbuffers are large, and no job waits for them (ADR 0073).
            super(5801, 10, 271);
        }

        public Mode getMode() {
            return mode;
        }

        public void setMode(Mode mode) {
            this.mode = mode;
        }

        public String getClusterName() {
            return clusterName;
        }

        public void setClusterName(String clusterName) {
            this.clusterName = clusterName;
        }

        public List<String> getAddresses() {
            return addresses;
        }

        public void setAddresses(List<String> addresses) {
            this.addresses = addresses;
        }

        public Topic getTopic() {
            return topic;
        }
    }

    /** The sharded reliable topic events travel on. */
    public static class Topic {

        private String prefix = HazelcastNames.EVENT_TOPIC_PREFIX;
        private int shards = 8;

        /**
         * Messages each shard's ringbuffer holds. With the BLOCK overload policy a shard accepts at most
         * {@code capacity / ttl} messages per second, so {@code shards * capacity / ttl} must exceed the peak rate
         * (defaults: 8 * 10 000 / 30 s = 2 666 msg/s). See ADR 0005.
         */
        private int capacity = 10_000;

        /**
         * How long a message is guaranteed to stay readable: publishers block rather than overwrite a younger one.
         * Older messages stay until {@code capacity} newer ones push them out.
         */
        private Duration ttl = Duration.ofSeconds(30);

        /**
         * Synchronous backups of each shard's ringbuffer on other members: with 1, a member's loss loses no message
         * (ADR 0005); with 0, its shards' messages are gone and their consumers ask the publishers for them again
         * (ADR 0093, 0096). At most 6, Hazelcast's limit.
         */
        private int backupCount = 1;

        private int listenerThreads = 8;
        private Duration publishTimeout = Duration.ofSeconds(30);

        public String getPrefix() {
            return prefix;
        }

        public void setPrefix(String prefix) {
            this.prefix = prefix;
        }

        public int getShards() {
            return shards;
        }

        public void setShards(int shards) {
            this.shards = shards;
        }

        public int getCapacity() {
            return capacity;
        }

        public void setCapacity(int capacity) {
            this.capacity = capacity;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public int getBackupCount() {
            return backupCount;
        }

        public void setBackupCount(int backupCount) {
            if (backupCount < 0 || backupCount > 6) {
                throw new IllegalArgumentException(
                        "sagaflow.hazelcast.shared.topic.backup-count must be 0 to 6, was " + backupCount);
            }
            this.backupCount = backupCount;
        }

        public int getListenerThreads() {
            return listenerThreads;
        }

        public void setListenerThreads(int listenerThreads) {
            this.listenerThreads = listenerThreads;
        }

        public Duration getPublishTimeout() {
            return publishTimeout;
        }

        public void setPublishTimeout(Duration publishTimeout) {
            this.publishTimeout = publishTimeout;
        }
    }

    /**
     * Bounds of one map (or a wildcard family of maps).
     *
     * @param maxEntriesPerMember LRU eviction beyond this many entries per member; 0 for no eviction (only for maps
     *     whose key space is bounded by construction, such as leases)
     * @param timeToLive entries expire this long after their last write; zero for never
     * @param backupCount synchronous backups
     */
    public record MapLimits(int maxEntriesPerMember, Duration timeToLive, int backupCount) {}
}
