/**
 * Admission: how many proxied requests a gateway replica holds at once. Each costs heap while it waits for its
 * service (Tomcat's buffers, the proxy's client, the virtual thread's stack), so past a bound the gateway answers 503
 * at once instead of holding more, and stays up when its services stall (ADR 0091).
 */
package io.sagaflow.gateway.admission;
