package io.sagaflow.inventory.product.application;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.AppendResult;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.inventory.product.domain.CreateProduct;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductCommand;
import io.sagaflow.inventory.product.domain.ProductDecider;
import io.sagaflow.inventory.product.domain.StockRejected;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The one way stock changes: inside a transaction, {@link #lock} the products' view rows (sorted, {@code FOR UPDATE}),
 * then {@link #execute} commands on the locked state, appending with the exact version that state reflects. While a
 * row is locked no other change to that product can be decided, so decisions never race (no oversell under any
 * concurrency); the expected version is a second guard that turns any drift between view and stream into a
 * {@code ConcurrencyConflictException} instead of a wrong decision.
 */
@Service
public class StockLedger {

    private final ProductViews views;
    private final EventStore events;
    private final ProductDecider decider = new ProductDecider();

    public StockLedger(ProductViews views, EventStore events) {
        this.views = views;
        this.events = events;
    }

    /** The event stream of {@code productId}. */
    public static String streamOf(UUID productId) {
        return InventoryContracts.PRODUCT_STREAM + productId;
    }

    /** The product whose event stream {@code streamId} is. */
    public static UUID productOf(String streamId) {
        return UUID.fromString(streamId.substring(InventoryContracts.PRODUCT_STREAM.length()));
    }

    /**
     * Locks {@code productIds} until the current transaction ends; see {@link ProductViews#lock}.
     *
     * @throws IllegalStateException outside a transaction, where a lock would be released at once
     */
    public Map<UUID, LockedProduct> lock(Collection<UUID> productIds, Collection<UUID> orderIds) {
        requireTransaction();
        return views.lock(productIds, orderIds);
    }

    private static void requireTransaction() {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("products can only be locked inside a transaction");
        }
    }

    /**
     * Locks {@code productIds} like {@link #lock}, with their view rows as locked; products that do not exist are
     * absent.
     *
     * @throws IllegalStateException outside a transaction, where a lock would be released at once
     */
    public Map<UUID, LockedView> lockWithViews(Collection<UUID> productIds, Collection<UUID> orderIds) {
        requireTransaction();
        return views.lockWithViews(productIds, orderIds);
    }

    /**
     * Decides {@code command} on the locked {@code product} and appends what it decides.
     *
     * @return the product as the decision leaves it, and when it changed (empty if the command changes nothing)
     * @throws StockRejected if the command breaks the product's rules
     */
    public Executed execute(LockedProduct product, ProductCommand command, EventMetadata metadata) {
        List<StreamAppend> appends = new ArrayList<>(1);
        LockedProduct after = decide(product, command, metadata, appends);
        if (appends.isEmpty()) {
            return new Executed(after.state(), Optional.empty());
        }
        AppendResult appended = events.appendAll(appends).getFirst();
        return new Executed(
                after.state(), Optional.of(appended.events().getLast().occurredAt()));
    }

    /**
     * What {@link #execute} did.
     *
     * @param state the product's stock after the command
     * @param changedAt when the appended events occurred; empty if the command changed nothing
     */
    public record Executed(Product state, Optional<Instant> changedAt) {}

    /**
     * Decides {@code command} on the locked {@code product} and adds the append of what it decides to {@code appends},
     * for the caller to make with the others of its transaction ({@link EventStore#appendAll}).
     *
     * @return the product as the decision leaves it, to decide its next command on
     * @throws StockRejected if the command breaks the product's rules
     */
    public LockedProduct decide(
            LockedProduct product, ProductCommand command, EventMetadata metadata, List<StreamAppend> appends) {
        List<DomainEvent> decided = decider.decide(command, product.state());
        if (decided.isEmpty()) {
            return product;
        }
        appends.add(new StreamAppend(
                streamOf(product.state().productId()), ExpectedVersion.exactly(product.version()), decided, metadata));
        return new LockedProduct(
                (Product) decider.evolveAll(product.state(), decided), product.version() + decided.size());
    }

    /** Starts the stream of a new product with what {@code create} decides on an empty stream. */
    List<DomainEvent> create(CreateProduct create, EventMetadata metadata) {
        List<DomainEvent> decided = decider.decide(create, decider.initialState());
        events.append(streamOf(create.productId()), ExpectedVersion.noStream(), decided, metadata);
        return decided;
    }
}
