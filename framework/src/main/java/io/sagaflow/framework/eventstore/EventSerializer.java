package io.sagaflow.framework.eventstore;

import io.sagaflow.framework.eventstore.EventTypeRegistry.EventType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns event records into JSON and back through the {@link EventTypeRegistry}, upcasting older schema versions on
 * the way in. Thread-safe.
 */
public final class EventSerializer {

    private final EventTypeRegistry registry;
    private final JsonMapper json;

    public EventSerializer(EventTypeRegistry registry, JsonMapper json) {
        this.registry = registry;
        this.json = json;
    }

    public EventTypeRegistry registry() {
        return registry;
    }

    /** The registration of {@code event}'s class. */
    public EventType typeOf(Object event) {
        return registry.typeOf(event.getClass());
    }

    /** {@code event} as JSON, in its type's current schema version. */
    public String serialize(Object event) {
        return json.writeValueAsString(event);
    }

    /** The record behind {@code payload}, written as {@code typeName} at {@code schemaVersion}, upcast as needed. */
    public Object deserialize(String typeName, int schemaVersion, String payload) {
        EventType type = registry.get(typeName);
        try {
            if (schemaVersion == type.currentVersion()) {
                return json.readValue(payload, type.javaType());
            }
            if (schemaVersion > type.currentVersion()) {
                throw new IllegalStateException("event type '%s' v%d is newer than this service knows (v%d)"
                        .formatted(typeName, schemaVersion, type.currentVersion()));
            }
            JsonNode tree = json.readTree(payload);
            if (!(tree instanceof ObjectNode node)) {
                throw new IllegalStateException("payload of '" + typeName + "' is not a JSON object");
            }
            ObjectNode current = node;
            for (int version = schemaVersion; version < type.currentVersion(); version++) {
                current = type.upcasters().get(version).upcast(current);
            }
            return json.treeToValue(current, type.javaType());
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot read event type '%s' v%d".formatted(typeName, schemaVersion), e);
        }
    }

    /** {@code value} (a snapshot state, say) as JSON. */
    public String write(Object value) {
        return json.writeValueAsString(value);
    }

    /** {@code payload} read as {@code type}. */
    public <T> T read(String payload, Class<T> type) {
        return json.readValue(payload, type);
    }
}
