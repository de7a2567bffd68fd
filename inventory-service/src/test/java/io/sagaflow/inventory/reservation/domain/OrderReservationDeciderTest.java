package io.sagaflow.inventory.reservation.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sagaflow.framework.test.decider.DeciderFixture;
import io.sagaflow.inventory.contracts.InventoryEvent;
import io.sagaflow.inventory.contracts.StockReleased;
import io.sagaflow.inventory.contracts.StockReservationFailed;
import io.sagaflow.inventory.contracts.StockReserved;
import io.sagaflow.inventory.contracts.StockReserved.ReservedLine;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderReservationDeciderTest {

    private static final UUID ORDER = UUID.fromString("00000000-0000-0000-0000-0000000000a1");
    private static final UUID KETTLE = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID TOASTER = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final List<ReservedLine> TWO_LINES =
            List.of(new ReservedLine(KETTLE, 2), new ReservedLine(TOASTER, 1));
    private static final UUID CUSTOMER = UUID.fromString("00000000-0000-0000-0000-0000000000c1");
    private static final BigDecimal TOTAL = new BigDecimal("42.50");
    private static final StockReserved RESERVED = new StockReserved(ORDER, TWO_LINES, CUSTOMER, TOTAL);

    private final DeciderFixture<ReservationCommand, OrderReservation, InventoryEvent> reservation =
            DeciderFixture.of(new OrderReservationDecider());

    @Test
    void givenNothing_whenEveryLineIsAvailable_thenStockReservedForAllLines() {
        reservation
                .givenNothing()
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(2), TOASTER, stock(5))))
                .then(RESERVED);
    }

    @Test
    void givenNothing_whenAProductAppearsTwice_thenItsQuantitiesAreReservedAsOneLine() {
        reservation
                .givenNothing()
                .when(reserve(
                        List.of(new ReservedLine(KETTLE, 1), new ReservedLine(TOASTER, 1), new ReservedLine(KETTLE, 2)),
                        Map.of(KETTLE, stock(3), TOASTER, stock(1))))
                .then(new StockReserved(
                        ORDER, List.of(new ReservedLine(KETTLE, 3), new ReservedLine(TOASTER, 1)), CUSTOMER, TOTAL));
    }

    @Test
    void givenNothing_whenTheRepeatedLinesOfOneProductExceedItsStock_thenOutOfStock() {
        reservation
                .givenNothing()
                .when(reserve(
                        List.of(new ReservedLine(KETTLE, 2), new ReservedLine(KETTLE, 2)), Map.of(KETTLE, stock(3))))
                .then(new StockReservationFailed(
                        ORDER,
                        ReservationFailure.OUT_OF_STOCK,
                        "product " + KETTLE + ": 4 requested, 3 available",
                        KETTLE));
    }

    @Test
    void givenNothing_whenOneLineIsShort_thenStockReservationFailedNamingIt() {
        reservation
                .givenNothing()
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(2), TOASTER, stock(0))))
                .then(new StockReservationFailed(
                        ORDER,
                        ReservationFailure.OUT_OF_STOCK,
                        "product " + TOASTER + ": 1 requested, 0 available",
                        TOASTER));
    }

    @Test
    void givenNothing_whenAProductIsUnknown_thenUnknownProduct() {
        List<InventoryEvent> decided = new OrderReservationDecider()
                .decide(reserve(TWO_LINES, Map.of(TOASTER, stock(5))), OrderReservation.none());
        assertThat(decided).singleElement().isInstanceOfSatisfying(StockReservationFailed.class, failed -> {
            assertThat(failed.code()).isEqualTo(ReservationFailure.UNKNOWN_PRODUCT);
            assertThat(failed.productId()).isEqualTo(KETTLE);
        });
    }

    @Test
    void givenNothing_whenAProductIsInactive_thenProductInactive() {
        List<InventoryEvent> decided = new OrderReservationDecider()
                .decide(
                        reserve(TWO_LINES, Map.of(KETTLE, stock(5), TOASTER, new ProductStock(false, 5, 0))),
                        OrderReservation.none());
        assertThat(decided)
                .singleElement()
                .isInstanceOfSatisfying(
                        StockReservationFailed.class,
                        failed -> assertThat(failed.code()).isEqualTo(ReservationFailure.PRODUCT_INACTIVE));
    }

    @Test
    void givenNothing_whenALineAsksForNoUnits_thenInvalidQuantity() {
        List<InventoryEvent> decided = new OrderReservationDecider()
                .decide(
                        reserve(List.of(new ReservedLine(KETTLE, 0)), Map.of(KETTLE, stock(5))),
                        OrderReservation.none());
        assertThat(decided)
                .singleElement()
                .isInstanceOfSatisfying(
                        StockReservationFailed.class,
                        failed -> assertThat(failed.code()).isEqualTo(ReservationFailure.INVALID_QUANTITY));
    }

    @Test
    void givenTheProductAlreadyHoldsTheSameQuantityForTheOrder_whenReserved_thenReservedWithoutNeedingMoreStock() {
        reservation
                .givenNothing()
                .when(reserve(List.of(new ReservedLine(KETTLE, 2)), Map.of(KETTLE, new ProductStock(true, 0, 2))))
                .then(new StockReserved(ORDER, List.of(new ReservedLine(KETTLE, 2)), CUSTOMER, TOTAL));
    }

    @Test
    void givenTheProductHoldsAnotherQuantityForTheOrder_whenReserved_thenReservationConflict() {
        List<InventoryEvent> decided = new OrderReservationDecider()
                .decide(
                        reserve(List.of(new ReservedLine(KETTLE, 2)), Map.of(KETTLE, new ProductStock(true, 9, 1))),
                        OrderReservation.none());
        assertThat(decided)
                .singleElement()
                .isInstanceOfSatisfying(
                        StockReservationFailed.class,
                        failed -> assertThat(failed.code()).isEqualTo(ReservationFailure.RESERVATION_CONFLICT));
    }

    @Test
    void givenReserved_whenThePlacementArrivesAgain_thenNothingHappens() {
        reservation
                .given(RESERVED)
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(9), TOASTER, stock(9))))
                .thenNothing();
    }

    @Test
    void givenFailed_whenThePlacementArrivesAgain_thenNothingHappens() {
        reservation
                .given(new StockReservationFailed(ORDER, ReservationFailure.OUT_OF_STOCK, "short", KETTLE))
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(9), TOASTER, stock(9))))
                .thenNothing();
    }

    @Test
    void givenReserved_whenReleaseRequested_thenStockReleasedWithTheReservedLines() {
        reservation
                .given(RESERVED)
                .when(new ReleaseOrderStock(ORDER, "payment declined"))
                .then(new StockReleased(ORDER, TWO_LINES, "payment declined"));
    }

    @Test
    void givenFailed_whenReleaseRequested_thenStockReleasedWithNoLines() {
        reservation
                .given(new StockReservationFailed(ORDER, ReservationFailure.OUT_OF_STOCK, "short", KETTLE))
                .when(new ReleaseOrderStock(ORDER, "stock short"))
                .then(new StockReleased(ORDER, List.of(), "stock short"));
    }

    @Test
    void givenReleased_whenReleaseRequestedAgain_thenNothingHappens() {
        reservation
                .given(RESERVED, new StockReleased(ORDER, TWO_LINES, "payment declined"))
                .when(new ReleaseOrderStock(ORDER, "payment declined"))
                .thenNothing();
    }

    @Test
    void givenNothing_whenReleaseRequestedBeforeThePlacement_thenStockReleasedWithNoLines() {
        reservation
                .givenNothing()
                .when(new ReleaseOrderStock(ORDER, "deadline passed"))
                .then(new StockReleased(ORDER, List.of(), "deadline passed"));
    }

    @Test
    void givenReleasedBeforeThePlacement_whenThePlacementArrives_thenOrderCancelledAndNothingReserved() {
        OrderReservation state = reservation
                .given(new StockReleased(ORDER, List.of(), "deadline passed"))
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(9), TOASTER, stock(9))))
                .then(new StockReservationFailed(
                        ORDER,
                        ReservationFailure.ORDER_CANCELLED,
                        "the order was cancelled before its stock was reserved",
                        null));
        assertThat(state.released()).isTrue();
    }

    @Test
    void givenCancelledBeforeThePlacementAndAnswered_whenThePlacementArrivesAgain_thenNothingHappens() {
        reservation
                .given(
                        new StockReleased(ORDER, List.of(), "deadline passed"),
                        new StockReservationFailed(ORDER, ReservationFailure.ORDER_CANCELLED, "cancelled", null))
                .when(reserve(TWO_LINES, Map.of(KETTLE, stock(9), TOASTER, stock(9))))
                .thenNothing();
    }

    private static ReserveOrderStock reserve(List<ReservedLine> lines, Map<UUID, ProductStock> stock) {
        return new ReserveOrderStock(ORDER, CUSTOMER, TOTAL, lines, stock);
    }

    private static ProductStock stock(int available) {
        return new ProductStock(true, available, 0);
    }
}
