/** The saga on the order service's cluster: the partitioned inbox, the Jet job, the deadline timers. */
package io.sagaflow.order.fulfilment.adapter.hazelcast;
