/** Cross-service events on the shared Hazelcast cluster: the wire message, publishing and subscribing. */
package io.sagaflow.framework.messaging;
