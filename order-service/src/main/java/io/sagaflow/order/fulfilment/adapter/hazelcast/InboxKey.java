package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.partition.PartitionAware;
import java.io.Serializable;
import java.util.UUID;

/** The key of an inbox message: unique per message, stored in the partition of its order. */
public record InboxKey(String messageId, UUID orderId) implements PartitionAware<String>, Serializable {

    @Override
    public String getPartitionKey() {
        return orderId.toString();
    }
}
