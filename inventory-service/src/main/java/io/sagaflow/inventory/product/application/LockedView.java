package io.sagaflow.inventory.product.application;

/**
 * A locked product ({@link LockedProduct}) with its view row as it was locked: what an answer about a change to it
 * is made from, without reading the row again while others wait for the lock.
 */
public record LockedView(LockedProduct product, ProductView view) {}
