package io.sagaflow.inventory.reservation.domain;

/**
 * What a reservation needs to know of one product, read while the product is locked.
 *
 * @param active whether the product may be reserved at all
 * @param availableQuantity units on hand not held by any order
 * @param heldForOrder units the product already holds for the order being reserved
 */
public record ProductStock(boolean active, int availableQuantity, int heldForOrder) {}
