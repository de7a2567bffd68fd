/** End-to-end tests of the whole system: real services in their own processes, real PostgreSQL and Hazelcast. */
package io.sagaflow.system;
