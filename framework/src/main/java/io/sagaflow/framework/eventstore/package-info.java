/**
 * The event store on PostgreSQL: optimistic appends per stream, reads per stream and in global commit order,
 * snapshots and the type registry that maps stable names to event records and upcasts old schema versions.
 */
package io.sagaflow.framework.eventstore;
