package io.sagaflow.framework.lease;

import java.io.Serializable;
import java.util.UUID;

/**
 * Who holds a slot, until when, and the fencing token that grows with every change of holder.
 *
 * @param owner the holding member's UUID
 * @param expiresAtMillis wall-clock time (of the slot's partition owner) after which anyone may take it
 * @param fence incremented on every change of holder
 */
public record Lease(UUID owner, long expiresAtMillis, long fence) implements Serializable {}
