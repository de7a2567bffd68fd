package io.sagaflow.inventory.product.domain;

import io.sagaflow.framework.domain.DomainEvent;

/**
 * A change to a product's stock, private to the inventory service (never published). A product stream holds the
 * published {@code ProductCreated} first and then only these.
 */
public sealed interface ProductStockEvent extends DomainEvent
        permits ProductStockReserved, ProductStockReleased, ProductStockReplenished {}
