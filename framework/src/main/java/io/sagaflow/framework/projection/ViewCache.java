package io.sagaflow.framework.projection;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapLoader;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bounded cache of one view in the per-service cluster: entries are the view's JSON, loaded through from
 * PostgreSQL on a miss, evicted LRU beyond the configured size, and dropped after every commit that changes them so
 * the next read loads the committed state. Every replica reads the same partitioned map, so every replica gives the
 * same answer.
 *
 * @param <V> the view record
 */
public final class ViewCache<V> {

    private final IMap<String, String> map;
    private final JsonMapper json;
    private final Class<V> type;

    public ViewCache(HazelcastInstance member, String mapName, JsonMapper json, Class<V> type) {
        this.map = member.getMap(mapName);
        this.json = json;
        this.type = type;
    }

    /**
     * The customizer that bounds the map {@code mapName} and loads its misses with {@code loader} (the view row by
     * id, as a record, or empty).
     */
    public static <V> ServiceClusterCustomizer loadThrough(
            String mapName, MapLimits limits, JsonMapper json, Function<String, Optional<V>> loader) {
        return (Config config) -> {
            MapConfig map = config.getMapConfig(mapName);
            map.setInMemoryFormat(InMemoryFormat.BINARY).setBackupCount(limits.backupCount());
            map.getEvictionConfig()
                    .setEvictionPolicy(com.hazelcast.config.EvictionPolicy.LRU)
                    .setMaxSizePolicy(com.hazelcast.config.MaxSizePolicy.PER_NODE)
                    .setSize(limits.maxEntriesPerMember());
            if (!limits.timeToLive().isZero()) {
                map.setTimeToLiveSeconds((int) limits.timeToLive().toSeconds());
            }
            map.setMapStoreConfig(new MapStoreConfig()
                    .setEnabled(true)
                    .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY)
                    .setImplementation(new JsonLoader<>(json, loader)));
        };
    }

    /** The view of {@code id}, from the cache or loaded through from PostgreSQL. */
    public Optional<V> get(String id) {
        String value = map.get(id);
        return value == null ? Optional.empty() : Optional.of(json.readValue(value, type));
    }

    /** Drops {@code id} from the cache once the current transaction commits (at once outside one). */
    public void invalidateAfterCommit(String id) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    map.evict(id);
                }
            });
        } else {
            map.evict(id);
        }
    }

    /** Empties the cache, e.g. after a rebuild. */
    public void clear() {
        map.evictAll();
    }

    private record JsonLoader<V>(JsonMapper json, Function<String, Optional<V>> loader)
            implements MapLoader<String, String> {

        @Override
        public String load(String key) {
            return loader.apply(key).map(json::writeValueAsString).orElse(null);
        }

        @Override
        public Map<String, String> loadAll(Collection<String> keys) {
            Map<String, String> loaded = new HashMap<>();
            for (String key : keys) {
                String value = load(key);
                if (value != null) {
                    loaded.put(key, value);
                }
            }
            return loaded;
        }

        @Override
        public Iterable<String> loadAllKeys() {
            return null;
        }
    }
}
