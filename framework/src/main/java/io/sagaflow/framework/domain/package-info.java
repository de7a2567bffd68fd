/** Plain-Java building blocks for domain code: event and command markers and the decider contract. */
package io.sagaflow.framework.domain;
