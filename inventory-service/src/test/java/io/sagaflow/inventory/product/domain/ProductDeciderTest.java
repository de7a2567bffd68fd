package io.sagaflow.inventory.product.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.test.decider.DeciderFixture;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.inventory.product.domain.StockRejected.Reason;
import java.math.BigDecimal;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ProductDeciderTest {

    private static final UUID PRODUCT = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID ORDER_A = UUID.fromString("00000000-0000-0000-0000-0000000000a1");
    private static final UUID ORDER_B = UUID.fromString("00000000-0000-0000-0000-0000000000b1");
    private static final ProductCreated CREATED_WITH_10 =
            new ProductCreated(PRODUCT, "SKU-1", "Kettle", "Boils water", new BigDecimal("19.99"), 10, "kitchen");

    private final DeciderFixture<ProductCommand, ProductState, DomainEvent> product =
            DeciderFixture.of(new ProductDecider());

    @Test
    void givenNothing_whenCreated_thenProductCreatedWithItsStock() {
        ProductState state = product.givenNothing()
                .when(new CreateProduct(
                        PRODUCT, "SKU-1", "Kettle", "Boils water", new BigDecimal("19.99"), 10, "kitchen"))
                .then(CREATED_WITH_10);
        assertThat(state).isEqualTo(new Product(PRODUCT, ProductStatus.ACTIVE, 10, 0, Map.of()));
    }

    @Test
    void givenProduct_whenCreatedAgain_thenRejected() {
        product.given(CREATED_WITH_10)
                .when(new CreateProduct(PRODUCT, "SKU-1", "Kettle", null, BigDecimal.ONE, 1, null))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.PRODUCT_EXISTS);
    }

    @Test
    void givenNothing_whenStockReserved_thenRejectedAsUnknownProduct() {
        product.givenNothing()
                .when(new ReserveStock(ORDER_A, 1, ReservationChannel.API))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.PRODUCT_NOT_FOUND);
    }

    @Test
    void givenEnoughStock_whenReserved_thenUnitsHeldForTheOrder() {
        ProductState state = product.given(CREATED_WITH_10)
                .when(new ReserveStock(ORDER_A, 4, ReservationChannel.SAGA))
                .then(new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.SAGA));
        assertThat(state).isEqualTo(new Product(PRODUCT, ProductStatus.ACTIVE, 10, 4, Map.of(ORDER_A, 4)));
        assertThat(((Product) state).availableQuantity()).isEqualTo(6);
    }

    @Test
    void givenExactlyTheAvailableUnits_whenReserved_thenAllAreHeld() {
        product.given(CREATED_WITH_10)
                .when(new ReserveStock(ORDER_A, 10, ReservationChannel.API))
                .then(new ProductStockReserved(PRODUCT, ORDER_A, 10, ReservationChannel.API));
    }

    @Test
    void givenOtherOrdersHoldStock_whenReservingMoreThanIsLeft_thenInsufficientStockWithAvailableAndRequested() {
        product.given(CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 8, ReservationChannel.API))
                .when(new ReserveStock(ORDER_B, 3, ReservationChannel.API))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.INSUFFICIENT_STOCK)
                .hasFieldOrPropertyWithValue("available", 2L)
                .hasFieldOrPropertyWithValue("requested", 3L);
    }

    @Test
    void givenAReservation_whenTheSameQuantityIsReservedAgain_thenNothingHappens() {
        product.given(CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.API))
                .when(new ReserveStock(ORDER_A, 4, ReservationChannel.API))
                .thenNothing();
    }

    @Test
    void givenAReservation_whenADifferentQuantityIsReservedForTheSameOrder_thenReservationExists() {
        product.given(CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.API))
                .when(new ReserveStock(ORDER_A, 5, ReservationChannel.API))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.RESERVATION_EXISTS);
    }

    @Test
    void givenAReservation_whenPartlyReleased_thenTheRestStaysHeld() {
        ProductState state = product.given(
                        CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.API))
                .when(new ReleaseStock(ORDER_A, 3, "one kept"))
                .then(new ProductStockReleased(PRODUCT, ORDER_A, 3, "one kept"));
        assertThat(state).isEqualTo(new Product(PRODUCT, ProductStatus.ACTIVE, 10, 1, Map.of(ORDER_A, 1)));
    }

    @Test
    void givenAReservation_whenReleasedEntirely_thenTheOrderHoldsNothingAndItsUnitsAreAvailableAgain() {
        ProductState state = product.given(
                        CREATED_WITH_10,
                        new ProductStockReserved(PRODUCT, ORDER_A, 10, ReservationChannel.API),
                        new ProductStockReleased(PRODUCT, ORDER_A, 10, "cancelled"))
                .when(new ReserveStock(ORDER_B, 10, ReservationChannel.SAGA))
                .then(new ProductStockReserved(PRODUCT, ORDER_B, 10, ReservationChannel.SAGA));
        assertThat(((Product) state).reservations()).containsOnlyKeys(ORDER_B);
    }

    @Test
    void givenNoReservationOfTheOrder_whenReleased_thenNoReservation() {
        product.given(CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.API))
                .when(new ReleaseStock(ORDER_B, 1, "not mine"))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.NO_RESERVATION);
    }

    @Test
    void givenAReservation_whenReleasingMoreThanItHolds_thenReservationTooSmall() {
        product.given(CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 4, ReservationChannel.API))
                .when(new ReleaseStock(ORDER_A, 5, "too many"))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.RESERVATION_TOO_SMALL)
                .hasFieldOrPropertyWithValue("available", 4L)
                .hasFieldOrPropertyWithValue("requested", 5L);
    }

    @Test
    void givenSoldOutProduct_whenReplenished_thenMoreUnitsCanBeReserved() {
        ProductState state = product.given(
                        CREATED_WITH_10, new ProductStockReserved(PRODUCT, ORDER_A, 10, ReservationChannel.API))
                .when(new ReplenishStock(5, "delivery"))
                .then(new ProductStockReplenished(PRODUCT, 5, "delivery"));
        assertThat(((Product) state).availableQuantity()).isEqualTo(5);
    }

    @Test
    void givenAlmostUncountableStock_whenReplenished_thenStockLimitExceeded() {
        product.given(CREATED_WITH_10, new ProductStockReplenished(PRODUCT, Integer.MAX_VALUE - 10, "huge"))
                .when(new ReplenishStock(1, "one too many"))
                .thenRejectedWith(StockRejected.class)
                .hasFieldOrPropertyWithValue("reason", Reason.STOCK_LIMIT_EXCEEDED);
    }

    @Test
    void commandsRefuseQuantitiesBelowOne() {
        assertThatThrownBy(() -> new ReserveStock(ORDER_A, 0, ReservationChannel.API))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReleaseStock(ORDER_A, -1, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReplenishStock(0, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CreateProduct(PRODUCT, "S", "N", null, BigDecimal.ZERO, 1, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
