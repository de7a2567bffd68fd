package io.sagaflow.inventory.audit.application;

import java.util.List;

/**
 * The stock of every product at one instant; {@code consistent} when every product is (see
 * {@link ProductStockAudit#consistent()}).
 */
public record StockAuditReport(List<ProductStockAudit> products, boolean consistent) {

    public StockAuditReport {
        products = List.copyOf(products);
    }

    public static StockAuditReport of(List<ProductStockAudit> products) {
        return new StockAuditReport(products, products.stream().allMatch(ProductStockAudit::consistent));
    }
}
