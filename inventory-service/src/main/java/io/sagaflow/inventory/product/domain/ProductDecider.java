package io.sagaflow.inventory.product.domain;

import io.sagaflow.framework.domain.Decider;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.inventory.contracts.ProductCreated;
import io.sagaflow.inventory.product.domain.ProductState.NoProduct;
import io.sagaflow.inventory.product.domain.StockRejected.Reason;
import java.util.List;
import java.util.Map;

/**
 * The rules of one product stream ({@code product-<id>}): it starts with {@link ProductCreated}, then records
 * reservations, releases and replenishments. No decision lets the reserved units exceed the units on hand, or an
 * order release more than it holds; a refused command throws {@link StockRejected} and changes nothing. Reserving the
 * same quantity for the same order again decides nothing, so retries are harmless.
 *
 * <p>The event type is {@link DomainEvent} because the stream mixes the published {@link ProductCreated} (sealed in
 * the contracts module) with the private {@link ProductStockEvent}s.
 */
public final class ProductDecider implements Decider<ProductCommand, ProductState, DomainEvent> {

    @Override
    public ProductState initialState() {
        return NoProduct.INSTANCE;
    }

    @Override
    public List<DomainEvent> decide(ProductCommand command, ProductState state) {
        return switch (state) {
            case NoProduct none -> decideForNoProduct(command);
            case Product product -> decideForProduct(command, product);
        };
    }

    private static List<DomainEvent> decideForNoProduct(ProductCommand command) {
        return switch (command) {
            case CreateProduct create ->
                List.of(new ProductCreated(
                        create.productId(),
                        create.sku(),
                        create.name(),
                        create.description(),
                        create.price(),
                        create.quantityOnHand(),
                        create.category()));
            case ReserveStock reserve -> throw notFound();
            case ReleaseStock release -> throw notFound();
            case ReplenishStock replenish -> throw notFound();
        };
    }

    private static List<DomainEvent> decideForProduct(ProductCommand command, Product product) {
        return switch (command) {
            case CreateProduct create ->
                throw new StockRejected(Reason.PRODUCT_EXISTS, "product " + product.productId() + " exists already");
            case ReserveStock reserve -> reserve(reserve, product);
            case ReleaseStock release -> release(release, product);
            case ReplenishStock replenish -> replenish(replenish, product);
        };
    }

    private static List<DomainEvent> reserve(ReserveStock reserve, Product product) {
        int held = product.reservedFor(reserve.orderId());
        if (held == reserve.quantity()) {
            return List.of();
        }
        if (held > 0) {
            throw new StockRejected(
                    Reason.RESERVATION_EXISTS,
                    "order %s already holds %d units of product %s, not %d"
                            .formatted(reserve.orderId(), held, product.productId(), reserve.quantity()),
                    held,
                    reserve.quantity());
        }
        if (product.availableQuantity() < reserve.quantity()) {
            throw new StockRejected(
                    Reason.INSUFFICIENT_STOCK,
                    "only %d units of product %s are available, %d requested"
                            .formatted(product.availableQuantity(), product.productId(), reserve.quantity()),
                    product.availableQuantity(),
                    reserve.quantity());
        }
        return List.of(new ProductStockReserved(
                product.productId(), reserve.orderId(), reserve.quantity(), reserve.channel()));
    }

    private static List<DomainEvent> release(ReleaseStock release, Product product) {
        int held = product.reservedFor(release.orderId());
        if (held == 0) {
            throw new StockRejected(
                    Reason.NO_RESERVATION,
                    "order %s holds no units of product %s".formatted(release.orderId(), product.productId()),
                    0,
                    release.quantity());
        }
        if (release.quantity() > held) {
            throw new StockRejected(
                    Reason.RESERVATION_TOO_SMALL,
                    "order %s holds %d units of product %s, cannot release %d"
                            .formatted(release.orderId(), held, product.productId(), release.quantity()),
                    held,
                    release.quantity());
        }
        return List.of(
                new ProductStockReleased(product.productId(), release.orderId(), release.quantity(), release.reason()));
    }

    private static List<DomainEvent> replenish(ReplenishStock replenish, Product product) {
        if ((long) product.quantityOnHand() + replenish.quantity() > Integer.MAX_VALUE) {
            throw new StockRejected(
                    Reason.STOCK_LIMIT_EXCEEDED,
                    "product %s cannot hold more than %d units".formatted(product.productId(), Integer.MAX_VALUE),
                    product.quantityOnHand(),
                    replenish.quantity());
        }
        return List.of(new ProductStockReplenished(product.productId(), replenish.quantity(), replenish.reason()));
    }

    @Override
    public ProductState evolve(ProductState state, DomainEvent event) {
        return switch (event) {
            case ProductCreated created ->
                new Product(created.productId(), ProductStatus.ACTIVE, created.quantityOnHand(), 0, Map.of());
            case ProductStockEvent change -> evolve(product(state), change);
            default -> throw new IllegalArgumentException("not an event of a product stream: " + event);
        };
    }

    private static Product evolve(Product product, ProductStockEvent change) {
        return switch (change) {
            case ProductStockReserved reserved -> product.withReservation(reserved.orderId(), reserved.quantity());
            case ProductStockReleased released -> product.withReservation(released.orderId(), -released.quantity());
            case ProductStockReplenished replenished -> product.withOnHand(replenished.quantity());
        };
    }

    private static Product product(ProductState state) {
        return switch (state) {
            case Product product -> product;
            case NoProduct none -> throw new IllegalStateException("stock change before ProductCreated");
        };
    }

    private static StockRejected notFound() {
        return new StockRejected(Reason.PRODUCT_NOT_FOUND, "the product does not exist");
    }
}
