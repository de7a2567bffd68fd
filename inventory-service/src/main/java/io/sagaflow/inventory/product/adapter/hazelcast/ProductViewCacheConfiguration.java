package io.sagaflow.inventory.product.adapter.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.inventory.InventoryMaps;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.application.ProductViews;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * GET-by-id of products through a bounded Hazelcast map that loads misses from {@code product_view} and is invalidated
 * after every commit that changes a product (see {@code ProductViewProjection}).
 */
@Configuration(proxyBeanMethods = false)
public class ProductViewCacheConfiguration {

    private static final MapLimits LIMITS = new MapLimits(10_000, Duration.ZERO, 1);

    @Bean
    ServiceClusterCustomizer productViewCacheLoader(ProductViews views, JsonMapper json) {
        return ViewCache.loadThrough(
                InventoryMaps.PRODUCT_VIEWS, LIMITS, json, id -> parse(id).flatMap(views::find));
    }

    @Bean
    ViewCache<ProductView> productViewCache(@ServiceCluster HazelcastInstance member, JsonMapper json) {
        return new ViewCache<>(member, InventoryMaps.PRODUCT_VIEWS, json, ProductView.class);
    }

    private static Optional<UUID> parse(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
