package io.sagaflow.inventory.reservation.application;

import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.DeciderRepository.Loaded;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.SnapshotStore;
import io.sagaflow.inventory.contracts.InventoryContracts;
import io.sagaflow.inventory.contracts.InventoryEvent;
import io.sagaflow.inventory.contracts.StockReleased;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import io.sagaflow.inventory.product.application.LockedProduct;
import io.sagaflow.inventory.product.application.StockLedger;
import io.sagaflow.inventory.product.domain.Product;
import io.sagaflow.inventory.product.domain.ProductStatus;
import io.sagaflow.inventory.product.domain.ReleaseStock;
import io.sagaflow.inventory.product.domain.ReservationChannel;
import io.sagaflow.inventory.product.domain.ReserveStock;
import io.sagaflow.inventory.reservation.domain.OrderReservation;
import io.sagaflow.inventory.reservation.domain.OrderReservationDecider;
import io.sagaflow.inventory.reservation.domain.ProductStock;
import io.sagaflow.inventory.reservation.domain.ReleaseOrderStock;
import io.sagaflow.inventory.reservation.domain.ReservationCommand;
import io.sagaflow.inventory.reservation.domain.ReserveOrderStock;
import io.sagaflow.order.contracts.OrderLine;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.StockReleaseRequested;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Answers the order saga's requests, each in one transaction (joining the idempotent consumer's, so the answer and
 * the record that the request was handled commit together):
 *
 * <ul>
 *   <li>{@link #reserve}: locks every product of the order (sorted), decides on all of them at once, and appends
 *       either {@code ProductStockReserved} to each product plus {@code StockReserved}, or only
 *       {@code StockReservationFailed}: never part of an order;
 *   <li>{@link #release}: appends {@code StockReleased} once, after giving back what each product holds for the
 *       order.
 * </ul>
 *
 * The reservation stream is appended with the version it was decided on, so two requests of one order handled at
 * once (by two replicas) cannot both answer: the loser rolls back entirely and is retried by the subscriber.
 */
@Service
public class OrderStockReservations {

    private static final String DEFAULT_RELEASE_REASON = "released at the order's request";

    private final StockLedger ledger;
    private final EventStore events;
    private final DeciderRepository<ReservationCommand, OrderReservation, InventoryEvent> reservations;
    private final OrderReservationDecider decider = new OrderReservationDecider();
    private final TransactionTemplate transactions;

    public OrderStockReservations(
            StockLedger ledger,
            EventStore events,
            SnapshotStore snapshots,
            PlatformTransactionManager transactionManager) {
        this.ledger = ledger;
        this.events = events;
        this.reservations =
                new DeciderRepository<>(events, snapshots, decider, OrderReservation.class, "OrderReservation", 1, 0);
        this.transactions = new TransactionTemplate(transactionManager);
    }

    /** The event stream of {@code orderId}'s reservation. */
    public static String streamOf(UUID orderId) {
        return InventoryContracts.RESERVATION_STREAM + orderId;
    }

    /** Reserves every line of {@code placed}, or none, and answers; a placement already answered is ignored. */
    public void reserve(OrderPlaced placed, EventMetadata metadata) {
        List<ReservedLine> lines = placed.lines() == null
                ? List.of()
                : placed.lines().stream().map(OrderStockReservations::line).toList();
        transactions.executeWithoutResult(status -> {
            Map<UUID, LockedProduct> locked =
                    ledger.lock(lines.stream().map(ReservedLine::productId).toList(), placed.orderId());
            Loaded<OrderReservation> reservation = reservations.load(streamOf(placed.orderId()));
            Map<UUID, ProductStock> stock = new HashMap<>();
            locked.forEach((productId, product) -> stock.put(productId, stockOf(product.state(), placed.orderId())));
            List<InventoryEvent> decided =
                    decider.decide(new ReserveOrderStock(placed.orderId(), lines, stock), reservation.state());
            for (InventoryEvent event : decided) {
                if (event instanceof StockReserved reserved) {
                    for (ReservedLine line : reserved.lines()) {
                        ledger.execute(
                                locked.get(line.productId()),
                                new ReserveStock(placed.orderId(), line.quantity(), ReservationChannel.SAGA),
                                metadata);
                    }
                }
            }
            append(placed.orderId(), reservation.version(), decided, metadata);
        });
    }

    /** Gives back what the order holds and answers once; a release already answered is ignored. */
    public void release(StockReleaseRequested requested, EventMetadata metadata) {
        String reason = requested.reason() == null || requested.reason().isBlank()
                ? DEFAULT_RELEASE_REASON
                : requested.reason();
        transactions.executeWithoutResult(status -> {
            Loaded<OrderReservation> reservation = reservations.load(streamOf(requested.orderId()));
            List<InventoryEvent> decided =
                    decider.decide(new ReleaseOrderStock(requested.orderId(), reason), reservation.state());
            for (InventoryEvent event : decided) {
                if (event instanceof StockReleased released && !released.lines().isEmpty()) {
                    Map<UUID, LockedProduct> locked = ledger.lock(
                            released.lines().stream()
                                    .map(ReservedLine::productId)
                                    .toList(),
                            requested.orderId());
                    for (LockedProduct product : locked.values()) {
                        // What the product holds now: an API caller may have released part of it meanwhile.
                        int held = product.state().reservedFor(requested.orderId());
                        if (held > 0) {
                            ledger.execute(product, new ReleaseStock(requested.orderId(), held, reason), metadata);
                        }
                    }
                }
            }
            append(requested.orderId(), reservation.version(), decided, metadata);
        });
    }

    private void append(UUID orderId, long version, List<InventoryEvent> decided, EventMetadata metadata) {
        if (!decided.isEmpty()) {
            events.append(streamOf(orderId), ExpectedVersion.exactly(version), decided, metadata);
        }
    }

    private static ReservedLine line(OrderLine line) {
        return new ReservedLine(line.productId(), line.quantity());
    }

    private static ProductStock stockOf(Product product, UUID orderId) {
        return new ProductStock(
                product.status() == ProductStatus.ACTIVE, product.availableQuantity(), product.reservedFor(orderId));
    }
}
