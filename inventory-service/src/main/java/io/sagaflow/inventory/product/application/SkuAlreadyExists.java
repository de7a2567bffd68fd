package io.sagaflow.inventory.product.application;

/** Another product has the SKU already; SKUs are unique across the catalogue. */
public final class SkuAlreadyExists extends RuntimeException {

    private final String sku;

    public SkuAlreadyExists(String sku) {
        super("a product with SKU '" + sku + "' exists already");
        this.sku = sku;
    }

    public String sku() {
        return sku;
    }
}
