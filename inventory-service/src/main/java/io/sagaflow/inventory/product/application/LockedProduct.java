package io.sagaflow.inventory.product.application;

import io.sagaflow.inventory.product.domain.Product;

/**
 * A product whose view row is locked by the current transaction, so nobody else changes it until that commits.
 *
 * @param state the product's stock, with the reservations of the orders the lock was taken for (decisions about an
 *     order read no other reservation)
 * @param version the version of the product stream the state reflects: the expected version of the next append
 */
public record LockedProduct(Product state, long version) {}
