package io.sagaflow.inventory.reservation.domain;

import io.sagaflow.framework.domain.Decider;
import io.sagaflow.inventory.contracts.InventoryEvent;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.inventory.contracts.StockReleased;
import io.sagaflow.inventory.contracts.StockReservationFailed;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import io.sagaflow.inventory.reservation.domain.OrderReservation.Placement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The rules of one order's reservation stream. Guarantees, whatever order requests arrive in and however often:
 *
 * <ul>
 *   <li>the placement is answered exactly once: {@link StockReserved} for all lines (quantities of one product summed
 *       into one line), with the order's customer and total for payment to charge, or {@link StockReservationFailed}
 *       naming the first failing line;
 *   <li>the release request is answered exactly once with {@link StockReleased}, carrying the reserved lines or none;
 *   <li>a placement that arrives after the release is refused with {@code ORDER_CANCELLED}, so nothing is reserved
 *       for an order that is already cancelled.
 * </ul>
 */
public final class OrderReservationDecider implements Decider<ReservationCommand, OrderReservation, InventoryEvent> {

    @Override
    public OrderReservation initialState() {
        return OrderReservation.none();
    }

    @Override
    public List<InventoryEvent> decide(ReservationCommand command, OrderReservation state) {
        return switch (command) {
            case ReserveOrderStock reserve -> reserve(reserve, state);
            case ReleaseOrderStock release -> release(release, state);
        };
    }

    private static List<InventoryEvent> reserve(ReserveOrderStock reserve, OrderReservation state) {
        if (state.placement() != Placement.UNANSWERED) {
            return List.of();
        }
        if (state.released()) {
            return List.of(new StockReservationFailed(
                    reserve.orderId(),
                    ReservationFailure.ORDER_CANCELLED,
                    "the order was cancelled before its stock was reserved",
                    null));
        }
        Map<UUID, Long> wanted = new LinkedHashMap<>();
        for (ReservedLine line : reserve.lines()) {
            if (line.quantity() <= 0) {
                return fail(
                        reserve, ReservationFailure.INVALID_QUANTITY, line.productId(), "quantity must be positive");
            }
            if (line.productId() == null) {
                return fail(reserve, ReservationFailure.UNKNOWN_PRODUCT, null, "a line names no product");
            }
            wanted.merge(line.productId(), (long) line.quantity(), Long::sum);
        }
        for (Map.Entry<UUID, Long> line : wanted.entrySet()) {
            UUID productId = line.getKey();
            long quantity = line.getValue();
            ProductStock stock = reserve.stock().get(productId);
            if (stock == null) {
                return fail(reserve, ReservationFailure.UNKNOWN_PRODUCT, productId, "no such product");
            }
            if (!stock.active()) {
                return fail(reserve, ReservationFailure.PRODUCT_INACTIVE, productId, "the product is not active");
            }
            if (stock.heldForOrder() > 0 && stock.heldForOrder() != quantity) {
                return fail(
                        reserve,
                        ReservationFailure.RESERVATION_CONFLICT,
                        productId,
                        "%d units are already held for the order, %d requested"
                                .formatted(stock.heldForOrder(), quantity));
            }
            if (stock.heldForOrder() == 0 && stock.availableQuantity() < quantity) {
                return fail(
                        reserve,
                        ReservationFailure.OUT_OF_STOCK,
                        productId,
                        "%d requested, %d available".formatted(quantity, stock.availableQuantity()));
            }
        }
        List<ReservedLine> lines = wanted.entrySet().stream()
                .map(line -> new ReservedLine(line.getKey(), Math.toIntExact(line.getValue())))
                .toList();
        return List.of(new StockReserved(reserve.orderId(), lines, reserve.customerId(), reserve.total()));
    }

    private static List<InventoryEvent> fail(ReserveOrderStock reserve, String code, UUID productId, String detail) {
        String reason = productId == null ? detail : "product " + productId + ": " + detail;
        return List.of(new StockReservationFailed(reserve.orderId(), code, reason, productId));
    }

    private static List<InventoryEvent> release(ReleaseOrderStock release, OrderReservation state) {
        if (state.released()) {
            return List.of();
        }
        List<ReservedLine> lines = state.placement() == Placement.RESERVED ? state.lines() : List.of();
        return List.of(new StockReleased(release.orderId(), lines, release.reason()));
    }

    @Override
    public OrderReservation evolve(OrderReservation state, InventoryEvent event) {
        return switch (event) {
            case StockReserved reserved -> new OrderReservation(Placement.RESERVED, state.released(), reserved.lines());
            case StockReservationFailed failed -> new OrderReservation(Placement.FAILED, state.released(), List.of());
            case StockReleased released -> new OrderReservation(state.placement(), true, state.lines());
            case ProductCreated created ->
                throw new IllegalArgumentException("ProductCreated does not belong to a reservation stream");
        };
    }
}
