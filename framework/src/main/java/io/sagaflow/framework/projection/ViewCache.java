package io.sagaflow.framework.projection;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.MapLoader;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties.MapLimits;
import io.sagaflow.framework.hazelcast.ServiceClusterCustomizer;
import io.sagaflow.framework.transaction.AfterCommit;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bounded cache of one view in the per-service cluster: entries are the view's JSON, loaded through from
 * PostgreSQL on a miss, evicted LRU beyond the configured size, and dropped after every commit that changes them so
 * the next read loads the committed state. Every replica reads the same partitioned map, so every replica gives the
 * same answer.
 *
 * <p>It also answers long polls ({@link #awaitChange}): a reader may wait until a view changes instead of asking
 * again and again. The wake-up is the invalidation itself, which reaches every member of the cluster, so a reader
 * waiting on one replica learns of a change committed on another (ADR 0025).
 *
 * @param <V> the view record
 */
public final class ViewCache<V> implements SmartLifecycle {

    /** How often a waiting reader looks again without being woken, in case a wake-up was lost with a member. */
    static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IMap<String, String> map;
    private final JsonMapper json;
    private final Class<V> type;
    private final Semaphore waiterPermits;
    private final Map<String, Set<Thread>> waiting = new ConcurrentHashMap<>();
    private volatile boolean listening;
    private volatile boolean running = true;

    /** A cache whose readers do not wait for changes. */
    public ViewCache(HazelcastInstance member, String mapName, JsonMapper json, Class<V> type) {
        this(member, mapName, json, type, 0);
    }

    /** @param maxWaiters readers that may wait for a change at once on this member ({@link #awaitChange}) */
    public ViewCache(HazelcastInstance member, String mapName, JsonMapper json, Class<V> type, int maxWaiters) {
        this.map = member.getMap(mapName);
        this.json = json;
        this.type = type;
        this.waiterPermits = new Semaphore(Math.max(maxWaiters, 0));
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

    /**
     * The view of {@code id} once {@code unchanged} no longer holds for it, or when {@code maxWait} has passed (then
     * as it is): a long poll. Wakes on the invalidation that follows every committed change, on whichever member it
     * commits, and looks again at least every second. Answers at once when the view is missing or already changed,
     * when {@code maxWait} is not positive, when this member already has its most waiting readers, and while the
     * service shuts down. {@code beforeWaiting} runs once, only if it does wait (to give back what a parked request
     * should not hold).
     */
    public Optional<V> awaitChange(String id, Predicate<V> unchanged, Duration maxWait, Runnable beforeWaiting) {
        Optional<V> view = get(id);
        if (view.isEmpty() || !unchanged.test(view.get()) || !maxWait.isPositive() || !running) {
            return view;
        }
        if (!waiterPermits.tryAcquire()) {
            return view;
        }
        try {
            listen();
            beforeWaiting.run();
            Thread reader = Thread.currentThread();
            long deadline = System.nanoTime() + maxWait.toNanos();
            waiting.compute(id, (key, readers) -> {
                Set<Thread> set = readers == null ? ConcurrentHashMap.newKeySet() : readers;
                set.add(reader);
                return set;
            });
            try {
                while (true) {
                    // Read after registering: a change committed since the first read has either been seen here
                    // or its invalidation is still to come and will wake this reader.
                    view = get(id);
                    long left = deadline - System.nanoTime();
                    if (view.isEmpty() || !unchanged.test(view.get()) || left <= 0 || !running) {
                        return view;
                    }
                    LockSupport.parkNanos(this, Math.min(left, RECHECK_NANOS));
                    if (Thread.currentThread().isInterrupted()) {
                        return view;
                    }
                }
            } finally {
                waiting.computeIfPresent(id, (key, readers) -> {
                    readers.remove(reader);
                    return readers.isEmpty() ? null : readers;
                });
            }
        } finally {
            waiterPermits.release();
        }
    }

    /** Readers waiting for a change on this member now. */
    public int waiting() {
        return waiting.values().stream().mapToInt(Set::size).sum();
    }

    /** Registers, once, the listener that wakes waiting readers on every invalidation in the cluster. */
    private void listen() {
        if (listening) {
            return;
        }
        synchronized (this) {
            if (!listening) {
                map.addEntryListener(new Wakeups(), false);
                listening = true;
            }
        }
    }

    private void wake(String id) {
        Set<Thread> readers = waiting.get(id);
        if (readers != null) {
            readers.forEach(LockSupport::unpark);
        }
    }

    private void wakeAll() {
        waiting.values().forEach(readers -> readers.forEach(LockSupport::unpark));
    }

    /** Invalidations (and LRU evictions, which wake a reader for nothing: it looks again and waits on). */
    private final class Wakeups
            implements EntryEvictedListener<String, String>,
                    EntryRemovedListener<String, String>,
                    MapEvictedListener,
                    MapClearedListener {

        @Override
        public void entryEvicted(EntryEvent<String, String> event) {
            wake(event.getKey());
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> event) {
            wake(event.getKey());
        }

        @Override
        public void mapEvicted(MapEvent event) {
            wakeAll();
        }

        @Override
        public void mapCleared(MapEvent event) {
            wakeAll();
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * On shutdown, before the web server's graceful wait: waiting readers answer at once with what they have, so no
     * long poll holds the shutdown up.
     */
    @Override
    public void stop() {
        running = false;
        wakeAll();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    /** Drops {@code id} from the cache once the current transaction commits (at once outside one). */
    public void invalidateAfterCommit(String id) {
        AfterCommit.run(() -> map.evict(id));
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
