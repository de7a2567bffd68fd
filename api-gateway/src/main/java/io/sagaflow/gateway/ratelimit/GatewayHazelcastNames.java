package io.sagaflow.gateway.ratelimit;

/** Names of the structures in the gateway's Hazelcast cluster. */
public final class GatewayHazelcastNames {

    /** Token buckets by client key ({@code key:<sha-256 of the API key>} or {@code ip:<address>}). */
    public static final String RATE_LIMIT_BUCKETS = "gateway.rate-limit.buckets";

    private GatewayHazelcastNames() {}
}
