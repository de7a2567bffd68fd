package io.sagaflow.framework.lease;

import com.hazelcast.map.EntryProcessor;
import java.io.Serial;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The only way a {@link Lease} changes: a compare-and-set run on the slot's partition owner, atomically with respect
 * to every other processor on that slot.
 *
 * <ul>
 *   <li>{@code CLAIM}: take the slot if it is free, expired, held by a member no longer in the cluster, or already
 *       ours (then renew);
 *   <li>{@code RENEW}: extend our lease; fails if someone else holds it;
 *   <li>{@code RELEASE}: give the slot up if we hold it.
 * </ul>
 *
 * Returns the lease after the operation (null if the slot is free), so the caller learns whether it holds it.
 */
record LeaseProcessor(Operation operation, UUID member, long ttlMillis, Set<UUID> liveMembers)
        implements EntryProcessor<Integer, Lease, Lease> {

    @Serial
    private static final long serialVersionUID = 1L;

    enum Operation {
        CLAIM,
        RENEW,
        RELEASE
    }

    @Override
    public Lease process(Map.Entry<Integer, Lease> entry) {
        Lease current = entry.getValue();
        long now = System.currentTimeMillis();
        boolean ours = current != null && current.owner().equals(member);
        return switch (operation) {
            case CLAIM -> {
                boolean free =
                        current == null || current.expiresAtMillis() <= now || !liveMembers.contains(current.owner());
                if (ours || free) {
                    long fence = current == null ? 1 : ours ? current.fence() : current.fence() + 1;
                    Lease claimed = new Lease(member, now + ttlMillis, fence);
                    entry.setValue(claimed);
                    yield claimed;
                }
                yield current;
            }
            case RENEW -> {
                if (ours) {
                    Lease renewed = new Lease(member, now + ttlMillis, current.fence());
                    entry.setValue(renewed);
                    yield renewed;
                }
                yield current;
            }
            case RELEASE -> {
                if (ours) {
                    entry.setValue(null);
                    yield null;
                }
                yield current;
            }
        };
    }
}
