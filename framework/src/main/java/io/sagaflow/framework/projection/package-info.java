/**
 * Read models: projections updated in the same transaction as the events they show, rebuildable by replay, and
 * served through bounded Hazelcast caches that load through from PostgreSQL.
 */
package io.sagaflow.framework.projection;
