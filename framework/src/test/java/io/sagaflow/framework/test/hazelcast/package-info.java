/** Small, fast Hazelcast clusters of real members on 127.0.0.1 for tests. */
package io.sagaflow.framework.test.hazelcast;
