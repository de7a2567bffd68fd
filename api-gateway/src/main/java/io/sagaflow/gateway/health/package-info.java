/** Aggregated health: each downstream service's health, as {@code services} in the gateway's {@code /actuator/health}. */
package io.sagaflow.gateway.health;
