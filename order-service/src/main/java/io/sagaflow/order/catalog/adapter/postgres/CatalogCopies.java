package io.sagaflow.order.catalog.adapter.postgres;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NearCacheConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapLoader;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.sagaflow.framework.hazelcast.ServiceCluster;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.transaction.AfterCommit;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/**
 * The order service's copies of customers (status) and products (price): kept in PostgreSQL, read through a cache on
 * the per-service cluster (ADR 0061). Every order looks its customer and products up; from the cache, a replica
 * answers that from its own heap, where a statement cost a round trip to PostgreSQL and a pooled connection.
 *
 * <ul>
 *   <li>Two maps on the per-service cluster, {@value #PRODUCTS} and {@value #CUSTOMERS}, load a miss from the copies'
 *       tables ({@link MapLoader}) and keep up to a size per member, least recently used out first. Each member keeps
 *       a near cache of them, so a hit costs no operation, not even on the local member.
 *   <li>A customer or product not copied yet is cached as such, so that its arrival, evicting that entry, reaches
 *       the near caches too (a near cache also keeps a miss, and hears only of changes to entries the map holds).
 *   <li>A change to a copy evicts its entry once its transaction commits. The eviction reaches every member's near
 *       cache at once (invalidations are sent one by one, not batched every 10 s), so the next read loads the committed
 *       copy.
 *   <li>The loaders run on the partition thread, not offloaded: an eviction queued behind a load that read the copy
 *       before the change committed then removes what that load kept. Offloaded, the load could finish after the
 *       eviction and keep the old copy. A miss reads one row by its key; misses are rare once the catalogue is read.
 *   <li>When a member leaves the cluster, the others empty both maps: the member may have died between a change's
 *       commit and its eviction, which would leave the old copy cached. The next reads load the copies again. No time
 *       to live: an expiring entry costs every member an operation per partition and second while it is held (ADR
 *       0038), idle or not.
 * </ul>
 */
@Repository
public class CatalogCopies {

    private static final Logger log = LoggerFactory.getLogger(CatalogCopies.class);

    /** A product as the order service knows it. */
    public record ProductCopy(UUID productId, String sku, String name, BigDecimal price) {}

    /** A customer's status, if copied, and the copied products among those asked for. */
    public record Known(Optional<String> customerStatus, Map<UUID, ProductCopy> products) {}

    /** The cached product copies, by product id. */
    public static final String PRODUCTS = "catalog-products";

    /** The cached customer statuses, by customer id. */
    public static final String CUSTOMERS = "catalog-customers";

    static final String PRODUCTS_BY_ID =
            "select product_id, sku, name, price from product_copy where product_id = any(?)";

    static final String CUSTOMERS_BY_ID = "select customer_id, status from customer_copy where customer_id = any(?)";

    /**
     * What the caches keep for a customer not copied (yet): its status. A product not copied is kept as a copy
     * without a price. A near cache keeps a miss too, and only a change to an entry the map holds reaches it: so the
     * map holds a miss as such an entry, and the copy's arrival evicts it like any change.
     */
    private static final String NOT_COPIED = "";

    private final JdbcTemplate jdbc;
    private final HazelcastInstance member;
    private final IMap<UUID, ProductCopy> products;
    private final IMap<UUID, String> customers;

    public CatalogCopies(JdbcTemplate jdbc, @ServiceCluster HazelcastInstance member) {
        this.jdbc = jdbc;
        this.member = member;
        this.products = member.getMap(PRODUCTS);
        this.customers = member.getMap(CUSTOMERS);
        member.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                // a new member holds nothing stale
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                // Off Hazelcast's event thread: emptying waits on every partition, which may be migrating now.
                Thread.ofVirtual().name("catalog-cache-reset").start(CatalogCopies.this::evictAll);
            }
        });
    }

    private void evictAll() {
        try {
            products.evictAll();
            customers.evictAll();
        } catch (RuntimeException e) {
            if (member.getLifecycleService().isRunning()) {
                // A copy changed by the member that left may stay cached until its next change: say so.
                log.warn("could not empty the catalogue caches after a member left", e);
            } else {
                log.debug("could not empty the catalogue caches: this member is shutting down", e);
            }
        }
    }

    /**
     * The configuration of the two caches on a service member: each map and each near cache keeps at most
     * {@code maxEntriesPerMember} entries per member; the copies load through {@code jdbc}.
     */
    public static ServiceClusterCustomizer caching(JdbcTemplate jdbc, int maxEntriesPerMember) {
        return (Config config) -> {
            cache(
                    config,
                    PRODUCTS,
                    maxEntriesPerMember,
                    new CopyLoader<>(
                            jdbc,
                            PRODUCTS_BY_ID,
                            (rs, n) -> new ProductCopy(
                                    rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getBigDecimal(4)),
                            key -> new ProductCopy(key, null, null, null)));
            cache(
                    config,
                    CUSTOMERS,
                    maxEntriesPerMember,
                    new CopyLoader<>(jdbc, CUSTOMERS_BY_ID, (rs, n) -> rs.getString(2), key -> NOT_COPIED));
            config.getSerializationConfig().getCompactSerializationConfig().addSerializer(new ProductCopySerializer());
            // A near cache hears of a change at once, not in the next batch (10 s by default). Only these maps have
            // near caches on a service member, so nothing else sends invalidations.
            config.setProperty("hazelcast.map.invalidation.batch.enabled", "false");
        };
    }

    private static void cache(Config config, String name, int maxEntriesPerMember, MapLoader<UUID, ?> loader) {
        // No backups: an entry lost with its member is loaded again.
        MapConfig map = config.getMapConfig(name)
                .setInMemoryFormat(InMemoryFormat.BINARY)
                .setBackupCount(0);
        map.getEvictionConfig()
                .setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                .setSize(maxEntriesPerMember);
        map.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY)
                .setOffload(false)
                .setImplementation(loader));
        map.setNearCacheConfig(new NearCacheConfig(name)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setCacheLocalEntries(true)
                .setInvalidateOnChange(true)
                .setEvictionConfig(new EvictionConfig()
                        .setEvictionPolicy(EvictionPolicy.LRU)
                        .setMaxSizePolicy(MaxSizePolicy.ENTRY_COUNT)
                        .setSize(maxEntriesPerMember)));
    }

    public void productCreated(UUID productId, String sku, String name, BigDecimal price) {
        jdbc.update(
                "insert into product_copy (product_id, sku, name, price) values (?, ?, ?, ?)"
                        + " on conflict (product_id) do update set sku = excluded.sku, name = excluded.name,"
                        + " price = excluded.price",
                productId,
                sku,
                name,
                price);
        AfterCommit.run(() -> products.evict(productId));
    }

    public void customerStatus(UUID customerId, String status) {
        jdbc.update(
                "insert into customer_copy (customer_id, status) values (?, ?)"
                        + " on conflict (customer_id) do update set status = excluded.status",
                customerId,
                status);
        AfterCommit.run(() -> customers.evict(customerId));
    }

    /** What the copies know of {@code customerId} and {@code productIds}. */
    public Known lookUp(UUID customerId, Collection<UUID> productIds) {
        Map<UUID, ProductCopy> known = new HashMap<>(products.getAll(new HashSet<>(productIds)));
        known.values().removeIf(product -> product.price() == null);
        String status = customers.get(customerId);
        return new Known(Optional.ofNullable(status).filter(s -> !s.equals(NOT_COPIED)), known);
    }

    /**
     * Loads copies by id with {@code sql} (the id in its first column, {@code copy} reading the row); an id not copied
     * yet loads as {@code notCopied} of it.
     */
    private record CopyLoader<V>(JdbcTemplate jdbc, String sql, RowMapper<V> copy, Function<UUID, V> notCopied)
            implements MapLoader<UUID, V> {

        @Override
        public V load(UUID key) {
            return loadAll(List.of(key)).get(key);
        }

        @Override
        public Map<UUID, V> loadAll(Collection<UUID> keys) {
            Map<UUID, V> loaded = new HashMap<>();
            jdbc.query(
                    sql,
                    rs -> {
                        loaded.put(rs.getObject(1, UUID.class), copy.mapRow(rs, loaded.size()));
                    },
                    (Object) keys.toArray(UUID[]::new));
            keys.forEach(key -> loaded.computeIfAbsent(key, notCopied));
            return loaded;
        }

        @Override
        public Iterable<UUID> loadAllKeys() {
            return null;
        }
    }

    /** A product copy in compact form, as the cache's members hold and send it. */
    static final class ProductCopySerializer implements CompactSerializer<ProductCopy> {

        @Override
        public ProductCopy read(CompactReader reader) {
            return new ProductCopy(
                    UUID.fromString(reader.readString("productId")),
                    reader.readString("sku"),
                    reader.readString("name"),
                    reader.readDecimal("price"));
        }

        @Override
        public void write(CompactWriter writer, ProductCopy product) {
            writer.writeString("productId", product.productId().toString());
            writer.writeString("sku", product.sku());
            writer.writeString("name", product.name());
            writer.writeDecimal("price", product.price());
        }

        @Override
        public String getTypeName() {
            return "sagaflow.order.ProductCopy";
        }

        @Override
        public Class<ProductCopy> getCompactClass() {
            return ProductCopy.class;
        }
    }
}
