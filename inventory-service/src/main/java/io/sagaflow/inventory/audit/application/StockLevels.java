package io.sagaflow.inventory.audit.application;

import java.util.List;

/** Reads every product's stock and active reservations from one consistent snapshot of the read model. */
public interface StockLevels {

    /** Every product, in id order, with its active reservations. */
    List<ProductStockAudit> snapshot();
}
