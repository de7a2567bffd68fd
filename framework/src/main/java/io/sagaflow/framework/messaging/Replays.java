package io.sagaflow.framework.messaging;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent.LifecycleState;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The requests of consumers that may have missed messages on a topic, to the topic's publisher: resend what you
 * published there since this time (ADR 0093). A ringbuffer holds a message for the topic's time-to-live and lives in
 * the shared cluster's memory, so a consumer away for longer, or a shared cluster that lost a ringbuffer, leaves
 * messages that no consumer will read; the publisher still has every event in its event store.
 *
 * <p>One entry per topic in a map of the shared cluster, the topic's name to the earliest publish time (epoch
 * milliseconds) asked for: a request for a topic already asked about keeps the earlier of the two. The entry is
 * removed once the publisher put the events back into its outbox, only if it still holds the time the publisher
 * answered, so a request that came meanwhile for an earlier time stays. Plain {@code String} keys and {@code Long}
 * values and compare-and-set operations only: the shared cluster needs none of our classes (in Kubernetes it runs
 * Hazelcast's own image).
 */
public final class Replays {

    private final HazelcastInstance shared;
    private final IMap<String, Long> requests;

    public Replays(HazelcastInstance shared, String mapName) {
        this.shared = shared;
        this.requests = shared.getMap(mapName);
    }

    /** Asks the publisher of {@code topic} to resend what it published there since {@code sinceMillis}. */
    public void request(String topic, long sinceMillis) {
        Long current = requests.putIfAbsent(topic, sinceMillis);
        while (current != null && sinceMillis < current) {
            if (requests.replace(topic, current, sinceMillis)) {
                return;
            }
            current = requests.putIfAbsent(topic, sinceMillis);
        }
    }

    /** The requests for the topics {@code topics} accepts: each topic's name and the earliest time asked for. */
    public Map<String, Long> pending(Predicate<String> topics) {
        Map<String, Long> pending = new HashMap<>();
        for (Map.Entry<String, Long> request : requests.entrySet()) {
            if (topics.test(request.getKey())) {
                pending.put(request.getKey(), request.getValue());
            }
        }
        return pending;
    }

    /**
     * Marks the request for {@code topic} since {@code sinceMillis} answered.
     *
     * @return false if an earlier one replaced it meanwhile, which stays pending
     */
    public boolean answered(String topic, long sinceMillis) {
        return requests.remove(topic, sinceMillis);
    }

    /**
     * Runs {@code onRequest} whenever a request is made, and whenever this instance (a client) connects to the shared
     * cluster again, which may have been asked meanwhile; cheap and quick, it runs on Hazelcast's threads.
     *
     * @return what stops it
     */
    public Runnable onRequest(Runnable onRequest) {
        UUID entries = requests.addEntryListener(new Listener(onRequest), false);
        UUID lifecycle = shared.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleState.CLIENT_CONNECTED) {
                onRequest.run();
            }
        });
        return () -> {
            if (shared.getLifecycleService().isRunning()) {
                requests.removeEntryListener(entries);
                shared.getLifecycleService().removeLifecycleListener(lifecycle);
            }
        };
    }

    private record Listener(Runnable onRequest)
            implements EntryAddedListener<String, Long>, EntryUpdatedListener<String, Long> {

        @Override
        public void entryAdded(EntryEvent<String, Long> event) {
            onRequest.run();
        }

        @Override
        public void entryUpdated(EntryEvent<String, Long> event) {
            onRequest.run();
        }
    }
}
