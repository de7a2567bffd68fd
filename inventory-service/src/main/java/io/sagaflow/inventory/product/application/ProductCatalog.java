package io.sagaflow.inventory.product.application;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.GroupCommit;
import io.sagaflow.framework.eventstore.GroupCommit.Outcome;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.inventory.product.domain.CreateProduct;
import io.sagaflow.inventory.product.domain.ProductCommand;
import io.sagaflow.inventory.product.domain.ReleaseStock;
import io.sagaflow.inventory.product.domain.ReplenishStock;
import io.sagaflow.inventory.product.domain.ReservationChannel;
import io.sagaflow.inventory.product.domain.ReserveStock;
import io.sagaflow.inventory.product.domain.StockRejected;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The product API's use cases. Each stock change runs in one transaction: lock the product's row, decide, append,
 * read the changed row back, so the answer is the committed state. Reservations made at the same time share one such
 * transaction ({@link GroupCommit}, ADR 0024). SKUs are unique even under concurrent creates:
 * the view's unique index makes the second of two racing creates wait for the first and then fail, rolling back its
 * event with it.
 */
@Service
public class ProductCatalog {

    private final StockLedger ledger;
    private final ProductViews views;
    private final ViewCache<ProductView> cache;
    private final TransactionTemplate transactions;
    private final GroupCommit<Reservation, ProductView> reservations;

    public ProductCatalog(
            StockLedger ledger,
            ProductViews views,
            ViewCache<ProductView> cache,
            PlatformTransactionManager transactionManager,
            MeterRegistry meters,
            @Value("${sagaflow.inventory.reservation.max-group:64}") int maxGroup) {
        this.ledger = ledger;
        this.views = views;
        this.cache = cache;
        this.transactions = new TransactionTemplate(transactionManager);
        DistributionSummary groups = DistributionSummary.builder("sagaflow.inventory.reservation.group")
                .description("API reservations committed together in one transaction")
                .register(meters);
        this.reservations = new GroupCommit<>(this::reserveAll, maxGroup, groups::record);
    }

    /** A reservation through the API, as {@link #reserve} takes it. */
    private record Reservation(UUID productId, UUID orderId, int quantity, EventMetadata metadata) {}

    /**
     * Adds a product with a new id.
     *
     * @throws SkuAlreadyExists if another product has its SKU
     */
    public ProductView create(NewProduct product, EventMetadata metadata) {
        String sku = product.sku().strip();
        CreateProduct create = new CreateProduct(
                UUID.randomUUID(),
                sku,
                product.name().strip(),
                product.description(),
                product.price().setScale(2, RoundingMode.HALF_EVEN),
                product.quantityOnHand(),
                product.category());
        try {
            return transactions.execute(status -> {
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

    /**
     * Holds {@code quantity} units for {@code orderId}; the same request again changes nothing. Committed together with
     * the reservations made at the same time; the answer is the product as that commit left it.
     *
     * @throws ProductNotFound if there is no such product
     * @throws StockRejected if the product cannot hold that for the order
     */
    public ProductView reserve(UUID productId, UUID orderId, int quantity, EventMetadata metadata) {
        return reservations.execute(new Reservation(productId, orderId, quantity, metadata));
    }

    /**
     * Reservations in one transaction: one sorted lock of all their products (with their orders' holdings), each
     * decided in turn on the state the ones before it left, one append, then the changed rows read back. One that the
     * product refuses, or whose product does not exist, fails alone.
     */
    private List<Outcome<ProductView>> reserveAll(List<Reservation> group) {
        return transactions.execute(status -> {
            Map<UUID, LockedProduct> products = new HashMap<>(ledger.lock(
                    group.stream().map(Reservation::productId).collect(Collectors.toSet()),
                    group.stream().map(Reservation::orderId).collect(Collectors.toSet())));
            List<StreamAppend> appends = new ArrayList<>();
            List<RuntimeException> refusals = new ArrayList<>(group.size());
            for (Reservation reservation : group) {
                LockedProduct product = products.get(reservation.productId());
                RuntimeException refusal = null;
                if (product == null) {
                    refusal = new ProductNotFound(reservation.productId());
                } else {
                    ReserveStock reserve =
                            new ReserveStock(reservation.orderId(), reservation.quantity(), ReservationChannel.API);
                    try {
                        products.put(
                                reservation.productId(),
                                ledger.decide(product, reserve, reservation.metadata(), appends));
                    } catch (StockRejected rejected) {
                        refusal = rejected;
                    }
                }
                refusals.add(refusal);
            }
            if (!appends.isEmpty()) {
                ledger.append(appends);
            }
            Map<UUID, ProductView> committed = new HashMap<>();
            List<Outcome<ProductView>> outcomes = new ArrayList<>(group.size());
            for (int i = 0; i < group.size(); i++) {
                outcomes.add(
                        refusals.get(i) != null
                                ? Outcome.failed(refusals.get(i))
                                : Outcome.done(committed.computeIfAbsent(
                                        group.get(i).productId(),
                                        id -> views.find(id).orElseThrow())));
            }
            return outcomes;
        });
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
            LockedProduct product = ledger.lock(Set.of(productId), orderId == null ? Set.of() : Set.of(orderId))
                    .get(productId);
            if (product == null) {
                throw new ProductNotFound(productId);
            }
            ledger.execute(product, command, metadata);
            return views.find(productId).orElseThrow();
        });
    }
}
