/**
 * Routing to the services and its resilience: the configured routes' circuit breakers and time limits
 * (Resilience4j), retries of idempotent reads, and the 502/503/504 problems a failing service turns into.
 */
package io.sagaflow.gateway.routing;
