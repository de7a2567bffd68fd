package io.sagaflow.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The gateway's own settings under {@code sagaflow.gateway}. Routes, circuit breakers and service locations use the
 * standard keys of Spring Cloud Gateway, Resilience4j and Spring Cloud LoadBalancer (see {@code application.yml}).
 *
 * @param services the service ids known to the discovery client; each gets a health indicator
 * @param health how the downstream health indicators call the services
 * @param rateLimit the per-client token buckets
 * @param security optional JWT authentication
 * @param hazelcast the gateway's own Hazelcast cluster, which holds the token buckets
 * @param unreachableReplicaPause how long a replica the gateway could not connect to is left out of load balancing
 *     (0: never left out)
 * @param readiness how the gateway asks each replica whether it is ready for requests
 * @param maxInFlight requests under {@code /api} a replica holds at once; more are answered 503 at once (0: no bound,
 *     ADR 0091). Each costs about 0.14 MB of heap while it waits for its service.
 * @param connectionBuffer the size of each open connection's read buffer and of its write buffer (Tomcat's 8 KB each
 *     by default, kept for as long as the connection is open; ADR 0041 for the services, 0091 for the gateway)
 */
@ConfigurationProperties("sagaflow.gateway")
public record GatewayProperties(
        @DefaultValue({"account", "inventory", "order", "payment"})
        List<String> services,

        @DefaultValue Health health,
        @DefaultValue RateLimit rateLimit,
        @DefaultValue Security security,
        @DefaultValue Cluster hazelcast,
        @DefaultValue("5s") Duration unreachableReplicaPause,
        @DefaultValue Readiness readiness,
        @DefaultValue("256") int maxInFlight,
        @DefaultValue("2KB") DataSize connectionBuffer) {

    /** @param timeout connect and answer timeout of one call to a replica's {@code /actuator/health} */
    public record Health(@DefaultValue("1s") Duration timeout) {}

    /**
     * The readiness probes of the replicas the gateway balances over (ADR 0077).
     *
     * @param interval time between two rounds of probes; 0 turns them off, every replica is offered (Kubernetes: the
     *     gateway is given one Service per service, whose endpoints are the ready pods already)
     * @param timeout how long one probe waits for its answer; a replica left out comes back only with a 2xx within it
     * @param failureThreshold unanswered probes in a row that leave a replica out; a refused connection or an answer
     *     other than 2xx leaves it out at once
     * @param idleAfter time without a request after which the probes rest until the next request
     */
    public record Readiness(
            @DefaultValue("1s") Duration interval,
            @DefaultValue("1s") Duration timeout,
            @DefaultValue("10") int failureThreshold,
            @DefaultValue("10s") Duration idleAfter) {}

    /**
     * @param enabled whether requests under {@code /api/} are rate limited (off for local and perf runs)
     * @param capacity the burst a client may send at once: the bucket's size
     * @param refillPerSecond tokens added to a client's bucket per second: its sustained rate
     * @param apiKeyHeader the header naming the client; without it the client is its address
     * @param timeout a cluster answer slower than this counts as a failure; when half of the recent ones fail, requests
     *     pass unlimited for a while (one call waits at most four times this, at least a second)
     * @param maxClientsPerMember buckets one gateway member keeps at most (least recently used go first)
     */
    public record RateLimit(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("100") long capacity,
            @DefaultValue("50") double refillPerSecond,
            @DefaultValue("X-API-Key") String apiKeyHeader,
            @DefaultValue("250ms") Duration timeout,
            @DefaultValue("100000") int maxClientsPerMember) {}

    /**
     * @param enabled whether {@code /api/**} needs a valid JWT and {@code /api/admin/**} the role {@code ADMIN}; the
     *     token is checked by Spring Security's resource server ({@code spring.security.oauth2.resourceserver.jwt.*})
     */
    public record Security(@DefaultValue("false") boolean enabled) {}

    /**
     * @param clusterName the cluster every gateway replica joins; it is the gateway's alone
     * @param port the first port a member tries; it takes the next free one of {@code portCount}
     * @param portCount how many ports from {@code port} members use and probe
     * @param members the TCP member list (hosts, optionally with ports) used to find the other replicas
     * @param bindInterface the interface to bind to (empty: all)
     * @param kubernetesServiceDns when set, replicas find each other through this headless service instead
     * @param partitionCount partitions of the cluster
     * @param properties further Hazelcast properties
     */
    public record Cluster(
            @DefaultValue("api-gateway") String clusterName,
            @DefaultValue("5781") int port,
            @DefaultValue("20") int portCount,
            @DefaultValue("127.0.0.1") List<String> members,
            @DefaultValue("127.0.0.1") String bindInterface,
            @DefaultValue("") String kubernetesServiceDns,
            @DefaultValue("271") int partitionCount,
            @DefaultValue Map<String, String> properties) {}
}
