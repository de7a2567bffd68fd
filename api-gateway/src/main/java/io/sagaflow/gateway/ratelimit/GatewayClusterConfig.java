package io.sagaflow.gateway.ratelimit;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import io.sagaflow.gateway.GatewayProperties;
import java.time.Duration;
import java.util.UUID;

/** The Hazelcast member every gateway replica embeds: a cluster of gateways only, holding the token buckets. */
final class GatewayClusterConfig {

    private GatewayClusterConfig() {}

    /**
     * @param callTimeout how long one operation may wait for its answer; the rate limiter's requests wait for one
     */
    static Config member(
            GatewayProperties.Cluster cluster, TokenBucket.Limit limit, int maxClientsPerMember, Duration callTimeout) {
        Config config = new Config();
        config.setClusterName(cluster.clusterName());
        config.setInstanceName(cluster.clusterName() + "-" + UUID.randomUUID());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.partition.count", Integer.toString(cluster.partitionCount()));
        config.setProperty("hazelcast.tcp.join.port.try.count", Integer.toString(cluster.portCount()));
        config.setProperty("hazelcast.operation.call.timeout.millis", Long.toString(callTimeout.toMillis()));
        config.getJetConfig().setEnabled(false);

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(cluster.port()).setPortAutoIncrement(true).setPortCount(cluster.portCount());
        if (!cluster.bindInterface().isBlank()) {
            network.getInterfaces().setEnabled(true).addInterface(cluster.bindInterface());
        }
        JoinConfig join = network.getJoin();
        join.getAutoDetectionConfig().setEnabled(false);
        join.getMulticastConfig().setEnabled(false);
        if (cluster.kubernetesServiceDns().isBlank()) {
            join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
        } else {
            join.getKubernetesConfig()
                    .setEnabled(true)
                    .setProperty("service-dns", cluster.kubernetesServiceDns())
                    .setProperty("service-port", Integer.toString(cluster.port()));
        }

        RateLimitSerializers.all()
                .forEach(serializer -> config.getSerializationConfig()
                        .getCompactSerializationConfig()
                        .addSerializer(serializer));
        config.addMapConfig(buckets(limit, maxClientsPerMember));
        cluster.properties().forEach(config::setProperty);
        return config;
    }

    /**
     * Buckets live as objects (the entry processor works on them without deserializing), with an asynchronous backup
     * so that a request waits for the owner only; a bucket untouched for as long as it takes to fill expires, since a
     * missing bucket is a full one; and a member keeps at most {@code maxClients} buckets.
     */
    private static MapConfig buckets(TokenBucket.Limit limit, int maxClients) {
        MapConfig buckets = new MapConfig(GatewayHazelcastNames.RATE_LIMIT_BUCKETS)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(0)
                .setAsyncBackupCount(1)
                .setStatisticsEnabled(false)
                .setTimeToLiveSeconds((int) Math.min(Integer.MAX_VALUE, limit.secondsToFill() + 1));
        buckets.setEvictionConfig(new EvictionConfig()
                .setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                .setSize(maxClients));
        return buckets;
    }
}
