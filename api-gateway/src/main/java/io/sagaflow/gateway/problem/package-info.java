/** RFC 9457 problem details answered by the gateway itself, in the same shape as the services' (ADR 0010). */
package io.sagaflow.gateway.problem;
