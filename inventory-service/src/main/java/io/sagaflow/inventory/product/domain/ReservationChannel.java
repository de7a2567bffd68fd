package io.sagaflow.inventory.product.domain;

/** Who asked for a reservation: the order saga (through an {@code OrderPlaced}) or a caller of the REST API. */
public enum ReservationChannel {
    SAGA,
    API
}
