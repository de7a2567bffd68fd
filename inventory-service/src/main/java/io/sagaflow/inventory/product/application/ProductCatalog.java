package io.sagaflow.inventory.product.application;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.eventstore.IdempotencyKeys;
import io.sagaflow.framework.eventstore.IdempotencyKeys.Claim;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.transaction.Grouping;
import io.sagaflow.framework.transaction.Grouping.Outcome;
import io.sagaflow.inventory.product.domain.CreateProduct;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductCommand;
import io.sagaflow.inventory.product.domain.ReleaseStock;
import io.sagaflow.inventory.product.domain.ReplenishStock;
import io.sagaflow.inventory.product.domain.ReservationChannel;
import io.sagaflow.inventory.product.domain.ReserveStock;
import io.sagaflow.inventory.product.domain.StockRejected;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The product API's use cases. Stock changes requested at the same time run together in one transaction ({@link
 * Grouping}, ADR 0106): lock the products' rows (reading them whole, in id order), decide each change in arrival order
 * on the state the ones before it left, append all that was decided at once. A change that its product's rules refuse,
 * or whose product does not exist, fails alone; the rest of its group is kept. The answer to each is its product's row
 * with the stock its own decision left and the time of its events, which is what the projection writes to it: the
 * committed state, without reading the row back while others wait for the lock (ADR 0028). SKUs are unique even under
 * concurrent creates: the view's unique index makes the second of two racing creates wait for the first and then fail,
 * rolling back its event with it.
 */
@Service
public class ProductCatalog {

    private final StockLedger ledger;
    private final ProductViews views;
    private final ViewCache<ProductView> cache;
    private final TransactionTemplate transactions;
    private final IdempotencyKeys idempotencyKeys;
    private final EventStore events;
    private final Grouping<StockChange, ProductView> changes;

    /**
     * @param maxGroup the most stock changes one transaction takes; 1 runs each in a transaction of its own, with no
     *     grouping
     */
    public ProductCatalog(
            StockLedger ledger,
            ProductViews views,
            ViewCache<ProductView> cache,
            PlatformTransactionManager transactionManager,
            IdempotencyKeys idempotencyKeys,
            EventStore events,
            MeterRegistry meters,
            @Value("${sagaflow.inventory.stock-changes.max-group:64}") int maxGroup) {
        this.ledger = ledger;
        this.views = views;
        this.cache = cache;
        this.transactions = new TransactionTemplate(transactionManager);
        this.idempotencyKeys = idempotencyKeys;
        this.events = events;
        if (maxGroup < 1) {
            throw new IllegalArgumentException(
                    "sagaflow.inventory.stock-changes.max-group must be at least 1, was " + maxGroup);
        }
        DistributionSummary groups = DistributionSummary.builder("sagaflow.inventory.stock.change.group")
                .description("Stock changes of the product API decided together in one transaction")
                .register(meters);
        this.changes = new Grouping<>(
                new Grouping.Work<>() {
                    @Override
                    public List<Outcome<ProductView>> together(List<StockChange> group) {
                        return changeTogether(group);
                    }

                    @Override
                    public ProductView alone(StockChange change) {
                        return changeTogether(List.of(change)).getFirst().get();
                    }
                },
                maxGroup,
                groups::record);
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
        return changes.run(new StockChange(productId, orderId, command, metadata));
    }

    /** Decides {@code group} in one transaction, in its order, and appends what it decided; one outcome per change. */
    private List<Outcome<ProductView>> changeTogether(List<StockChange> group) {
        return transactions.execute(status -> {
            Set<UUID> productIds = new HashSet<>();
            Set<UUID> orderIds = new HashSet<>();
            for (StockChange change : group) {
                productIds.add(change.productId());
                if (change.orderId() != null) {
                    orderIds.add(change.orderId());
                }
            }
            Map<UUID, LockedView> locked = ledger.lockWithViews(productIds, orderIds);
            Map<UUID, LockedProduct> current = new HashMap<>();
            locked.forEach((productId, view) -> current.put(productId, view.product()));
            List<StreamAppend> appends = new ArrayList<>();
            List<Decided> decided = new ArrayList<>(group.size());
            for (StockChange change : group) {
                LockedProduct product = current.get(change.productId());
                if (product == null) {
                    decided.add(new Decided(change, null, -1, new ProductNotFound(change.productId())));
                    continue;
                }
                try {
                    int before = appends.size();
                    LockedProduct after = ledger.decide(product, change.command(), change.metadata(), appends);
                    current.put(change.productId(), after);
                    decided.add(new Decided(change, after.state(), appends.size() > before ? before : -1, null));
                } catch (StockRejected rejected) {
                    decided.add(new Decided(change, null, -1, rejected));
                }
            }
            List<AppendResult> appended = appends.isEmpty() ? List.of() : events.appendAll(appends);
            // Each answer is its product's row as the changes up to it left it: later ones of the group do not show.
            Map<UUID, ProductView> rows = new HashMap<>();
            locked.forEach((productId, view) -> rows.put(productId, view.view()));
            List<Outcome<ProductView>> outcomes = new ArrayList<>(group.size());
            for (Decided one : decided) {
                if (one.refusal() != null) {
                    outcomes.add(Outcome.failed(one.refusal()));
                    continue;
                }
                UUID productId = one.change().productId();
                ProductView row = rows.get(productId);
                if (one.append() >= 0) {
                    row = row.withStock(
                            one.state(),
                            appended.get(one.append()).events().getLast().occurredAt());
                    rows.put(productId, row);
                }
                outcomes.add(Outcome.done(row));
            }
            return outcomes;
        });
    }

    /** A stock change the API asked for; {@code orderId} is null for a change that concerns no order. */
    private record StockChange(UUID productId, UUID orderId, ProductCommand command, EventMetadata metadata) {}

    /**
     * A change as its group decided it: the product's state after it and the index of its append (-1: it changed
     * nothing), or the refusal that fails it alone.
     */
    private record Decided(StockChange change, Product state, int append, RuntimeException refusal) {}
}
