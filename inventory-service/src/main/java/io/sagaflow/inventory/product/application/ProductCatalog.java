package io.sagaflow.inventory.product.application;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.eventstore.IdempotencyKeys;
import io.sagaflow.framework.eventstore.IdempotencyKeys.Claim;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.inventory.product.application.StockLedger.Executed;
import io.sagaflow.inventory.product.domain.CreateProduct;
import io.sagaflow.inventory.product.domain.ProductCommand;
import io.sagaflow.inventory.product.domain.ReleaseStock;
import io.sagaflow.inventory.product.domain.ReplenishStock;
import io.sagaflow.inventory.product.domain.ReservationChannel;
import io.sagaflow.inventory.product.domain.ReserveStock;
import java.math.RoundingMode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The product API's use cases. Each stock change runs in one transaction: lock the product's row (reading it whole),
 * decide, append. The answer is that row with the stock the decision left and the time of its events, which is what
 * the projection writes to it: the committed state, without reading the row back while others wait for the lock
 * (ADR 0028). SKUs are unique even under concurrent creates: the view's unique index makes the second of two racing
 * creates wait for the first and then fail, rolling back its event with it.
 */
@Service
public class ProductCatalog {

    private final StockLedger ledger;
    private final ProductViews views;
    private final ViewCache<ProductView> cache;
    private final TransactionTemplate transactions;
    private final IdempotencyKeys idempotencyKeys;

    public ProductCatalog(
            StockLedger ledger,
            ProductViews views,
            ViewCache<ProductView> cache,
            PlatformTransactionManager transactionManager,
            IdempotencyKeys idempotencyKeys) {
        this.ledger = ledger;
        this.views = views;
        this.cache = cache;
        this.transactions = new TransactionTemplate(transactionManager);
        this.idempotencyKeys = idempotencyKeys;
    }

    /**
     * Adds a product with a new id.
     *
     * @param idempotencyKey the key of the client's request, claimed first in the product's transaction (so that a
     *     request made again finds it used before it finds its SKU taken); null for none
     * @throws SkuAlreadyExists if another product has its SKU
     * @throws IdempotencyKeyUsedException if a product was created with the key before; this one is not
     */
    public ProductView create(NewProduct product, EventMetadata metadata, IdempotencyKey idempotencyKey) {
        String sku = product.sku().strip();
        CreateProduct create = new CreateProduct(
                TimeOrderedIds.next(),
                sku,
                product.name().strip(),
                product.description(),
                product.price().setScale(2, RoundingMode.HALF_EVEN),
                product.quantityOnHand(),
                product.category());
        try {
            return transactions.execute(status -> {
                if (idempotencyKey != null) {
                    idempotencyKeys.claim(List.of(new Claim(idempotencyKey, StockLedger.streamOf(create.productId()))));
                }
                if (views.skuExists(sku)) {
                    throw new SkuAlreadyExists(sku);
                }
                ledger.create(create, metadata);
                return views.find(create.productId()).orElseThrow();
            });
        } catch (DuplicateKeyException e) {
            // The only unique key a new product's append can hit, besides its fresh random ids, is the SKU's.
            throw new SkuAlreadyExists(sku);
        }
    }

    /** The product, from the cluster's view cache (loaded from PostgreSQL on a miss). */
    public Optional<ProductView> find(UUID productId) {
        return cache.get(productId.toString());
    }

    public List<ProductView> list(int limit) {
        return views.list(limit);
    }

    /** Holds {@code quantity} units for {@code orderId}; the same request again changes nothing. */
    public ProductView reserve(UUID productId, UUID orderId, int quantity, EventMetadata metadata) {
        return change(productId, orderId, new ReserveStock(orderId, quantity, ReservationChannel.API), metadata);
    }

    /** Gives back {@code quantity} of the units held for {@code orderId}. */
    public ProductView release(UUID productId, UUID orderId, int quantity, String reason, EventMetadata metadata) {
        return change(productId, orderId, new ReleaseStock(orderId, quantity, reason), metadata);
    }

    /** Adds {@code quantity} units to the stock on hand. */
    public ProductView replenish(UUID productId, int quantity, String reason, EventMetadata metadata) {
        return change(productId, null, new ReplenishStock(quantity, reason), metadata);
    }

    private ProductView change(UUID productId, UUID orderId, ProductCommand command, EventMetadata metadata) {
        return transactions.execute(status -> {
            LockedView locked = ledger.lockWithView(productId, orderId == null ? Set.of() : Set.of(orderId))
                    .orElseThrow(() -> new ProductNotFound(productId));
            Executed executed = ledger.execute(locked.product(), command, metadata);
            return executed.changedAt()
                    .map(at -> locked.view().withStock(executed.state(), at))
                    .orElse(locked.view());
        });
    }
}
