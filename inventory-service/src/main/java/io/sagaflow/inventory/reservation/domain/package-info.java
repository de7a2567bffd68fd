/** One order's stock reservation as a pure decider: all its lines or none, answered once, released once. */
package io.sagaflow.inventory.reservation.domain;
