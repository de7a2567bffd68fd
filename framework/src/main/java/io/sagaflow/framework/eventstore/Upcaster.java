package io.sagaflow.framework.eventstore;

import tools.jackson.databind.node.ObjectNode;

/**
 * Upgrades the JSON of one event type by one schema version, from {@code n} to {@code n + 1}. Upcasters run on every
 * read path (stream reads, global reads, messages from the shared topic), so stored events are never rewritten.
 */
@FunctionalInterface
public interface Upcaster {

    /** The payload at the next schema version; may modify and return {@code payload}. */
    ObjectNode upcast(ObjectNode payload);
}
