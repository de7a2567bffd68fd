package io.sagaflow.inventory.product.application;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code product_view} read model. It is written in the transaction of every product append (so it is exactly
 * as current as the event store) and carries the stream version, which makes a locked row a safe basis to decide on.
 */
public interface ProductViews {

    Optional<ProductView> find(UUID productId);

    /** The first {@code limit} products in creation order. */
    List<ProductView> list(int limit);

    boolean skuExists(String sku);

    /**
     * Locks the rows of {@code productIds} ({@code FOR UPDATE}, in ascending id order so two callers never deadlock)
     * until the current transaction ends and returns their state, with what each of {@code orderIds} holds of them.
     * Products that do not exist are absent from the result. Must run inside a transaction.
     */
    Map<UUID, LockedProduct> lock(Collection<UUID> productIds, Collection<UUID> orderIds);

    /** {@link #lock} that also returns each product's view row as locked. */
    Map<UUID, LockedView> lockWithViews(Collection<UUID> productIds, Collection<UUID> orderIds);
}
