package io.sagaflow.order.ordering.application;

import io.sagaflow.framework.domain.TimeOrderedIds;
import io.sagaflow.framework.eventstore.EventEnvelope;
import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.eventstore.EventStore.StreamAppend;
import io.sagaflow.framework.eventstore.ExpectedVersion;
import io.sagaflow.framework.eventstore.GroupCommit;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies;
import io.sagaflow.order.catalog.adapter.postgres.CatalogCopies.ProductCopy;
import io.sagaflow.order.contracts.OrderContracts;
import io.sagaflow.order.contracts.OrderLine;
import io.sagaflow.order.contracts.OrderPlaced;
import io.sagaflow.order.ordering.domain.OrderCancellationRequested;
import io.sagaflow.order.ordering.domain.OrderPricing;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places and cancels orders. Placing checks the customer and products against the order service's copies, prices
 * the order, arms the saga's deadline and appends {@link OrderPlaced} (saga step 1): from there the saga runs on
 * events alone. Orders placed at the same time commit together ({@link GroupCommit}, ADR 0024).
 */
public class OrderPlacement {

    private static final Logger log = LoggerFactory.getLogger(OrderPlacement.class);

    /** What the order's saga is told of its placement (ADR 0033). */
    public interface SagaStart {

        /** Before the order commits: arms the timer of the saga of {@code orderId} to fire at {@code deadline}. */
        void arm(UUID orderId, Instant deadline);

        /** Once the order committed: its {@code OrderPlaced} as stored, the saga's stream so far. */
        void placed(EventEnvelope<Object> placed);
    }

    /** What a client asks for. */
    public record PlaceOrder(UUID customerId, List<RequestedLine> lines, String shippingAddress) {}

    /** A requested line; {@code unitPrice} may be null to take the catalogue price. */
    public record RequestedLine(UUID productId, int quantity, BigDecimal unitPrice) {}

    private final GroupCommit commits;
    private final CatalogCopies catalog;
    private final OrderPricing pricing;
    private final Duration sagaTimeout;
    private final Clock clock;
    private final OrderAdmission admission;
    private final SagaStart saga;

    public OrderPlacement(
            GroupCommit commits,
            CatalogCopies catalog,
            OrderPricing pricing,
            Duration sagaTimeout,
            Clock clock,
            OrderAdmission admission,
            SagaStart saga) {
        this.admission = admission;
        this.saga = saga;
        this.commits = commits;
        this.catalog = catalog;
        this.pricing = pricing;
        this.sagaTimeout = sagaTimeout;
        this.clock = clock;
    }

    public static String streamOf(UUID orderId) {
        return OrderContracts.ORDER_STREAM + orderId;
    }

    /** The order whose stream {@code streamId} is. */
    public static UUID orderOf(String streamId) {
        return UUID.fromString(streamId.substring(OrderContracts.ORDER_STREAM.length()));
    }

    /**
     * Places the order; returns what was placed.
     *
     * @param idempotencyKey the key of the client's request, recorded with the order; null for none
     * @throws ApiException 503 if the sagas are too far behind to take another order now ({@link OrderAdmission}),
     *     or if the saga's timer cannot be armed
     * @throws IdempotencyKeyUsedException if an order was placed with the key before; this one is not placed (its
     *     armed timer fires on no saga)
     */
    public OrderView place(PlaceOrder order, EventMetadata metadata, IdempotencyKey idempotencyKey) {
        admission.admit();
        CatalogCopies.Known known = catalog.lookUp(
                order.customerId(),
                order.lines().stream().map(RequestedLine::productId).distinct().toList());
        Map<UUID, ProductCopy> products = known.products();
        List<OrderLine> lines = new ArrayList<>();
        for (RequestedLine line : order.lines()) {
            ProductCopy product = products.get(line.productId());
            if (product == null) {
                throw ApiException.unprocessable("PRODUCT_NOT_FOUND", "Product " + line.productId() + " is not known");
            }
            BigDecimal unitPrice = line.unitPrice() == null ? product.price() : line.unitPrice();
            lines.add(new OrderLine(line.productId(), line.quantity(), unitPrice.setScale(2, RoundingMode.HALF_EVEN)));
        }
        String status = known.customerStatus()
                .orElseThrow(() -> ApiException.unprocessable(
                        "CUSTOMER_NOT_FOUND", "Customer " + order.customerId() + " is not known"));
        if (!"ACTIVE".equals(status)) {
            throw ApiException.unprocessable(
                    "CUSTOMER_NOT_ACTIVE", "Customer " + order.customerId() + " is " + status + " and cannot order");
        }
        OrderPricing.Totals totals = pricing.price(lines);
        UUID orderId = TimeOrderedIds.next();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        OrderPlaced placed = new OrderPlaced(
                orderId,
                order.customerId(),
                List.copyOf(lines),
                totals.subtotal(),
                totals.tax(),
                totals.total(),
                order.shippingAddress(),
                now.plus(sagaTimeout));
        // Armed before the commit, so that no saga runs without its timer even if this process dies right after the
        // commit; a timer whose order never committed fires on no saga and decides nothing.
        try {
            saga.arm(orderId, placed.deadline());
        } catch (RuntimeException e) {
            log.warn("could not arm the saga timer of a new order: {}", e.toString());
            throw ApiException.unavailable(
                    "SAGA_TIMER_UNAVAILABLE",
                    "The order's saga timer could not be armed; no order was placed, retry after the time in"
                            + " Retry-After");
        }
        EventEnvelope<Object> stored = commits.append(new StreamAppend(
                        streamOf(orderId), ExpectedVersion.noStream(), List.of(placed), metadata, idempotencyKey))
                .events()
                .getFirst();
        saga.placed(stored);
        // The view's times are the event's, as its row has them: the answer and a later read agree (and so do
        // their ETags).
        Instant at = stored.occurredAt();
        return new OrderView(
                orderId,
                orderId,
                order.customerId(),
                lines.stream()
                        .map(l -> new OrderView.LineItem(
                                l.productId(), l.quantity(), l.unitPrice(), OrderPricing.lineTotal(l)))
                        .toList(),
                totals.subtotal(),
                totals.tax(),
                totals.total(),
                order.shippingAddress(),
                "PENDING",
                null,
                null,
                null,
                at,
                at);
    }

    /** Asks the saga to cancel a pending order; the saga decides what to undo. */
    public void requestCancellation(OrderView order, String reason, String cancelledBy, EventMetadata metadata) {
        switch (order.status()) {
            case "CONFIRMED" ->
                throw ApiException.conflict("ORDER_ALREADY_CONFIRMED", "Order " + order.orderId() + " is confirmed");
            case "CANCELLED" ->
                throw ApiException.conflict("ORDER_ALREADY_CANCELLED", "Order " + order.orderId() + " is cancelled");
            default ->
                commits.append(new StreamAppend(
                        streamOf(order.orderId()),
                        ExpectedVersion.any(),
                        List.of(new OrderCancellationRequested(order.orderId(), reason, cancelledBy)),
                        metadata));
        }
    }
}
