/** Requests whose headers the gateway rewrites before they are routed. */
package io.sagaflow.gateway.headers;
