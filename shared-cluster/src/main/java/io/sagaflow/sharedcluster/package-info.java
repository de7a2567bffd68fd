/** The shared Hazelcast cluster's member as a process of its own, for the local stack (ADR 0039). */
package io.sagaflow.sharedcluster;
