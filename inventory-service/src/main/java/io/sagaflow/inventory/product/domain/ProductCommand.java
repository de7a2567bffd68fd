package io.sagaflow.inventory.product.domain;

import io.sagaflow.framework.domain.Command;

/** A request to change one product; decided by {@link ProductDecider}. */
public sealed interface ProductCommand extends Command
        permits CreateProduct, ReserveStock, ReleaseStock, ReplenishStock {}
