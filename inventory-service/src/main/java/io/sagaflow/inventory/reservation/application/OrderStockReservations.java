package io.sagaflow.inventory.reservation.application;

import io.sagaflow.framework.eventstore.DeciderRepository;
import io.sagaflow.framework.eventstore.DeciderRepository.Loaded;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
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
import io.sagaflow.inventory.reservation.domain.OrderReservation.Placement;
import io.sagaflow.inventory.reservation.domain.OrderReservationDecider;
import io.sagaflow.inventory.reservation.domain.ProductStock;
import io.sagaflow.inventory.reservation.domain.ReleaseOrderStock;
import io.sagaflow.inventory.reservation.domain.ReserveOrderStock;
import io.sagaflow.order.contracts.OrderLine;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.contracts.StockReleaseRequested;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Answers the order saga's requests, a batch at a time, in one transaction (joining the idempotent consumer's, so
 * the answers and the record that the requests were handled commit together):
 *
 * <ul>
 *   <li>a reservation ({@link Reserve}) decides on all of the order's products at once and appends either
 *       {@code ProductStockReserved} to each product plus {@code StockReserved}, or only
 *       {@code StockReservationFailed}: never part of an order;
 *   <li>a release ({@link Release}) appends {@code StockReleased} once, after giving back what each product holds
 *       for the order.
 * </ul>
 *
 * <p>A batch reads every order's reservation stream in one query, locks every product it may touch in one statement
 * (sorted, as every other writer of stock does), decides the requests in order on the states the earlier ones left,
 * and appends everything in one statement (ADR 0022): its cost hardly grows with its size, and it holds the product
 * locks for a few statements, not one round of statements per order. Handling a batch gives the same answers as
 * handling its requests one after another.
 *
 * <p>The reservation streams are appended with the versions they were decided on, so two batches with a request of
 * one order handled at once (by two replicas) cannot both answer: the loser rolls back entirely and is retried by
 * the subscriber.
 */
@Service
public class OrderStockReservations {

    private static final String DEFAULT_RELEASE_REASON = "released at the order's request";

    /** A request of the saga, with the metadata of the message that carried it. */
    public sealed interface Request {

        UUID orderId();

        EventMetadata metadata();
    }

    /** Reserve every line of the placed order, or none. */
    public record Reserve(OrderPlaced placed, EventMetadata metadata) implements Request {

        @Override
        public UUID orderId() {
            return placed.orderId();
        }
    }

    /** Give back whatever the order holds. */
    public record Release(StockReleaseRequested requested, EventMetadata metadata) implements Request {

        @Override
        public UUID orderId() {
            return requested.orderId();
        }
    }

    private final StockLedger ledger;
    private final EventStore events;
    private final OrderReservationDecider decider = new OrderReservationDecider();
    private final TransactionTemplate transactions;

    public OrderStockReservations(
            StockLedger ledger, EventStore events, PlatformTransactionManager transactionManager) {
        this.ledger = ledger;
        this.events = events;
        this.transactions = new TransactionTemplate(transactionManager);
    }

    /** The event stream of {@code orderId}'s reservation. */
    public static String streamOf(UUID orderId) {
        return InventoryContracts.RESERVATION_STREAM + orderId;
    }

    /** Reserves every line of {@code placed}, or none, and answers; a placement already answered is ignored. */
    public void reserve(OrderPlaced placed, EventMetadata metadata) {
        handleAll(List.of(new Reserve(placed, metadata)));
    }

    /** Gives back what the order holds and answers once; a release already answered is ignored. */
    public void release(StockReleaseRequested requested, EventMetadata metadata) {
        handleAll(List.of(new Release(requested, metadata)));
    }

    /** Handles {@code requests} in their order, in one transaction. */
    public void handleAll(List<Request> requests) {
        if (requests.isEmpty()) {
            return;
        }
        transactions.executeWithoutResult(status -> {
            Map<UUID, Loaded<OrderReservation>> reservations = load(requests);
            Map<UUID, LockedProduct> products = ledger.lock(productsOf(requests, reservations), reservations.keySet());
            List<StreamAppend> appends = new ArrayList<>();
            for (Request request : requests) {
                Loaded<OrderReservation> reservation = reservations.get(request.orderId());
                List<InventoryEvent> decided = switch (request) {
                    case Reserve reserve -> reserve(reserve, reservation, products, appends);
                    case Release release -> release(release, reservation, products, appends);
                };
                if (!decided.isEmpty()) {
                    appends.add(new StreamAppend(
                            streamOf(request.orderId()),
                            ExpectedVersion.exactly(reservation.version()),
                            decided,
                            request.metadata()));
                    reservations.put(request.orderId(), reservation.then(decider, decided));
                }
            }
            if (!appends.isEmpty()) {
                events.appendAll(appends);
            }
        });
    }

    private List<InventoryEvent> reserve(
            Reserve reserve,
            Loaded<OrderReservation> reservation,
            Map<UUID, LockedProduct> products,
            List<StreamAppend> appends) {
        UUID orderId = reserve.orderId();
        List<ReservedLine> lines = reserve.placed().lines() == null
                ? List.of()
                : reserve.placed().lines().stream()
                        .map(OrderStockReservations::line)
                        .toList();
        Map<UUID, ProductStock> stock = new HashMap<>();
        for (ReservedLine line : lines) {
            LockedProduct product = line.productId() == null ? null : products.get(line.productId());
            if (product != null) {
                stock.put(line.productId(), stockOf(product.state(), orderId));
            }
        }
        List<InventoryEvent> decided = decider.decide(
                new ReserveOrderStock(
                        orderId, reserve.placed().customerId(), reserve.placed().total(), lines, stock),
                reservation.state());
        for (InventoryEvent event : decided) {
            if (event instanceof StockReserved reserved) {
                for (ReservedLine line : reserved.lines()) {
                    products.put(
                            line.productId(),
                            ledger.decide(
                                    products.get(line.productId()),
                                    new ReserveStock(orderId, line.quantity(), ReservationChannel.SAGA),
                                    reserve.metadata(),
                                    appends));
                }
            }
        }
        return decided;
    }

    private List<InventoryEvent> release(
            Release release,
            Loaded<OrderReservation> reservation,
            Map<UUID, LockedProduct> products,
            List<StreamAppend> appends) {
        UUID orderId = release.orderId();
        String reason = release.requested().reason() == null
                        || release.requested().reason().isBlank()
                ? DEFAULT_RELEASE_REASON
                : release.requested().reason();
        List<InventoryEvent> decided = decider.decide(new ReleaseOrderStock(orderId, reason), reservation.state());
        for (InventoryEvent event : decided) {
            if (event instanceof StockReleased released) {
                for (ReservedLine line : released.lines()) {
                    LockedProduct product = products.get(line.productId());
                    // What the product holds now: an API caller may have released part of it meanwhile.
                    int held = product == null ? 0 : product.state().reservedFor(orderId);
                    if (held > 0) {
                        products.put(
                                line.productId(),
                                ledger.decide(
                                        product, new ReleaseStock(orderId, held, reason), release.metadata(), appends));
                    }
                }
            }
        }
        return decided;
    }

    /** The reservation stream of every order of {@code requests}, read in one query. */
    private Map<UUID, Loaded<OrderReservation>> load(List<Request> requests) {
        Map<String, UUID> orders = new HashMap<>();
        requests.forEach(request -> orders.put(streamOf(request.orderId()), request.orderId()));
        Map<UUID, Loaded<OrderReservation>> reservations = new HashMap<>();
        events.readStreams(orders.keySet())
                .forEach((stream, stored) ->
                        reservations.put(orders.get(stream), DeciderRepository.replay(decider, stored)));
        return reservations;
    }

    /**
     * Every product the requests may change: the lines of each placement, and what each order held when the batch
     * began (a release gives back no more than that, even after a reservation earlier in the batch).
     */
    private static Set<UUID> productsOf(List<Request> requests, Map<UUID, Loaded<OrderReservation>> reservations) {
        Set<UUID> products = new LinkedHashSet<>();
        for (Request request : requests) {
            switch (request) {
                case Reserve reserve -> {
                    if (reserve.placed().lines() != null) {
                        reserve.placed().lines().forEach(line -> products.add(line.productId()));
                    }
                }
                case Release release -> {
                    OrderReservation state = reservations.get(release.orderId()).state();
                    if (state.placement() == Placement.RESERVED) {
                        state.lines().forEach(line -> products.add(line.productId()));
                    }
                }
            }
        }
        products.remove(null);
        return products;
    }

    private static ReservedLine line(OrderLine line) {
        return new ReservedLine(line.productId(), line.quantity());
    }

    private static ProductStock stockOf(Product product, UUID orderId) {
        return new ProductStock(
                product.status() == ProductStatus.ACTIVE, product.availableQuantity(), product.reservedFor(orderId));
    }
}
