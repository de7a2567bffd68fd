package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.sagaflow.order.fulfilment.application.SagaInbox;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The inbox as a map partitioned by order id. Adding is {@code putIfAbsent}, so a message added twice appears once
 * in the map's event journal; handled messages are removed, so the map holds only work in progress (its entries also
 * expire after a while, and its journal is a bounded ring).
 */
public class HazelcastSagaInbox implements SagaInbox {

    private final IMap<InboxKey, SagaInboxEntry> inbox;

    public HazelcastSagaInbox(HazelcastInstance member) {
        this.inbox = member.getMap(SagaNames.INBOX);
    }

    @Override
    public void add(String messageId, UUID orderId, SagaInboxEntry entry) {
        inbox.putIfAbsent(new InboxKey(messageId, orderId), entry);
    }

    @Override
    public void remove(String messageId, UUID orderId) {
        inbox.delete(new InboxKey(messageId, orderId));
    }

    @Override
    public void removeAll(Map<String, UUID> messages) {
        List<CompletableFuture<Boolean>> removals = new ArrayList<>(messages.size());
        messages.forEach((messageId, orderId) ->
                removals.add(inbox.deleteAsync(new InboxKey(messageId, orderId)).toCompletableFuture()));
        removals.forEach(CompletableFuture::join);
    }

    @Override
    public int backlog() {
        return Math.toIntExact(inbox.getLocalMapStats().getOwnedEntryCount());
    }
}
