package io.sagaflow.framework.hazelcast;

import com.hazelcast.config.Config;

/**
 * Adjusts the per-service member's configuration before it starts, e.g. to attach a map loader to a view cache.
 * Every bean of this type is applied, in order.
 */
@FunctionalInterface
public interface ServiceClusterCustomizer {

    void customize(Config config);
}
