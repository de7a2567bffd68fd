package io.sagaflow.framework.eventstore;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Maps stable type names to event records and back, with each type's current schema version and the chain of
 * {@link Upcaster upcasters} that brings older versions up to it. Type names, not class names, are stored, so
 * records can be renamed or moved without touching stored events.
 *
 * <p>Immutable once built; {@link Builder#build()} checks that every type has an upcaster for every version below
 * its current one.
 */
public final class EventTypeRegistry {

    private final Map<String, EventType> byName;
    private final Map<Class<?>, EventType> byClass;

    private EventTypeRegistry(Map<String, EventType> byName) {
        this.byName = Map.copyOf(byName);
        Map<Class<?>, EventType> classes = new HashMap<>();
        byName.values().forEach(type -> classes.put(type.javaType(), type));
        this.byClass = Map.copyOf(classes);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The registration of {@code eventClass}. */
    public EventType typeOf(Class<?> eventClass) {
        EventType type = byClass.get(eventClass);
        if (type == null) {
            throw new UnknownEventTypeException("no event type registered for " + eventClass.getName());
        }
        return type;
    }

    /** Every registration. */
    public Collection<EventType> all() {
        return byName.values();
    }

    /** The registration of {@code name}, if any. */
    public Optional<EventType> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The registration of {@code name}. */
    public EventType get(String name) {
        return find(name).orElseThrow(() -> new UnknownEventTypeException("unknown event type '" + name + "'"));
    }

    /**
     * The names of the published types a consumer of {@code consumed} receives only to skip them: registered under the
     * publisher of one of {@code consumed}, so they travel on the same topics, but not among {@code consumed}. Each
     * costs that consumer a remote read and a listener's call for nothing (ADR 0036); a contract that splits its
     * types by who reads them keeps this empty.
     */
    public Set<String> skippedBy(Set<Class<?>> consumed) {
        Set<String> publishers = new HashSet<>();
        for (Class<?> type : consumed) {
            publishers.add(typeOf(type).publisher());
        }
        Set<String> skipped = new TreeSet<>();
        for (EventType type : byName.values()) {
            if (type.published() && publishers.contains(type.publisher()) && !consumed.contains(type.javaType())) {
                skipped.add(type.name());
            }
        }
        return Collections.unmodifiableSet(skipped);
    }

    /** A registry with the types of both; a name registered in both must map to the same registration. */
    public EventTypeRegistry merge(EventTypeRegistry other) {
        Map<String, EventType> merged = new HashMap<>(byName);
        other.byName.forEach((name, type) -> {
            EventType existing = merged.putIfAbsent(name, type);
            if (existing != null && !existing.equals(type)) {
                throw new IllegalArgumentException("event type '" + name + "' registered twice, differently");
            }
        });
        return new EventTypeRegistry(merged);
    }

    /**
     * One registered type.
     *
     * @param name stable name stored with each event
     * @param javaType the record it deserialises to
     * @param currentVersion the schema version new events are written with
     * @param publisher the topic family this published type's messages travel on (ADR 0019), or null for a private
     *     type: appends of a published type also write outbox rows. The service's own name, or its name and what the
     *     family carries when the service splits its types by who reads them (ADR 0036)
     * @param upcasters {@code upcasters.get(n)} upgrades version {@code n} to {@code n + 1}
     */
    public record EventType(
            String name, Class<?> javaType, int currentVersion, String publisher, Map<Integer, Upcaster> upcasters) {

        /** Whether appends of this type also write outbox rows for the shared topic. */
        public boolean published() {
            return publisher != null;
        }
    }

    /** Collects registrations; {@link #build()} validates them. */
    public static final class Builder {

        /** A publisher name is one segment of a topic name ({@code sagaflow.events.<publisher>.<shard>}). */
        private static final Pattern PUBLISHER_NAME = Pattern.compile("[a-z][a-z0-9-]*");

        private final Map<String, EventType> types = new HashMap<>();
        private final Map<String, Map<Integer, Upcaster>> upcasters = new HashMap<>();

        private Builder() {}

        /** Registers a private event (stays inside the service) at schema version 1. */
        public Builder register(String name, Class<?> javaType) {
            return register(name, javaType, 1, null);
        }

        /**
         * Registers an event of a service's contract, published to the shared topic through the outbox, at version 1.
         * Publisher and consumers register it with the same publisher name: it names the topics its messages travel
         * on. Types registered under one name share those topics, and a consumer of one of them receives them all;
         * only types under one name keep their relative order within a stream (ADR 0036).
         */
        public Builder registerPublished(String publisher, String name, Class<?> javaType) {
            if (publisher == null) {
                throw new IllegalArgumentException("published event type '" + name + "' needs a publisher");
            }
            return register(name, javaType, 1, publisher);
        }

        /** Registers {@code javaType} under {@code name} at {@code currentVersion}; {@code publisher} null if private. */
        public Builder register(String name, Class<?> javaType, int currentVersion, String publisher) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("event type name is required");
            }
            if (currentVersion < 1) {
                throw new IllegalArgumentException("schema versions start at 1");
            }
            if (publisher != null && !PUBLISHER_NAME.matcher(publisher).matches()) {
                throw new IllegalArgumentException(
                        "publisher of '" + name + "' must match " + PUBLISHER_NAME.pattern() + ": " + publisher);
            }
            if (types.containsKey(name)) {
                throw new IllegalArgumentException("event type '" + name + "' registered twice");
            }
            if (types.values().stream().anyMatch(type -> type.javaType().equals(javaType))) {
                throw new IllegalArgumentException(javaType.getName() + " registered under two names");
            }
            types.put(name, new EventType(name, javaType, currentVersion, publisher, Map.of()));
            return this;
        }

        /** Adds the upcaster of type {@code name} from schema version {@code fromVersion} to the next one. */
        public Builder upcast(String name, int fromVersion, Upcaster upcaster) {
            Upcaster previous =
                    upcasters.computeIfAbsent(name, key -> new HashMap<>()).put(fromVersion, upcaster);
            if (previous != null) {
                throw new IllegalArgumentException("two upcasters for " + name + " v" + fromVersion);
            }
            return this;
        }

        public EventTypeRegistry build() {
            Map<String, EventType> complete = new HashMap<>();
            upcasters.keySet().stream()
                    .filter(name -> !types.containsKey(name))
                    .findAny()
                    .ifPresent(name -> {
                        throw new IllegalArgumentException("upcaster for unregistered event type '" + name + "'");
                    });
            types.forEach((name, type) -> {
                Map<Integer, Upcaster> chain = upcasters.getOrDefault(name, Map.of());
                for (int version = 1; version < type.currentVersion(); version++) {
                    if (!chain.containsKey(version)) {
                        throw new IllegalArgumentException("event type '%s' is at v%d but has no upcaster from v%d"
                                .formatted(name, type.currentVersion(), version));
                    }
                }
                if (chain.keySet().stream().anyMatch(version -> version >= type.currentVersion())) {
                    throw new IllegalArgumentException("event type '" + name + "' has an upcaster past its version");
                }
                complete.put(
                        name,
                        new EventType(
                                name, type.javaType(), type.currentVersion(), type.publisher(), Map.copyOf(chain)));
            });
            return new EventTypeRegistry(complete);
        }
    }
}
