/** The API gateway: the single entry point for clients, routing to the four services (ADR 0012). */
package io.sagaflow.gateway;
