/** Correlation id and W3C trace context: accepted or created at the gateway, passed on, returned (ADR 0010). */
package io.sagaflow.gateway.correlation;
