package io.sagaflow.inventory.product.adapter.web;

import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.framework.web.IdempotentRequests;
import io.sagaflow.framework.web.RequestMetadata;
import io.sagaflow.inventory.product.application.NewProduct;
import io.sagaflow.inventory.product.application.ProductCatalog;
import io.sagaflow.inventory.product.application.ProductNotFound;
import io.sagaflow.inventory.product.application.ProductView;
import io.sagaflow.inventory.product.application.SkuAlreadyExists;
import io.sagaflow.inventory.product.application.StockLedger;
import io.sagaflow.inventory.product.domain.StockRejected;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Products and their stock. Every refusal is a problem with a stable {@code code}: 404 {@code PRODUCT_NOT_FOUND},
 * 409 {@code SKU_ALREADY_EXISTS}, {@code INSUFFICIENT_STOCK} (with {@code available} and {@code requested}),
 * {@code RESERVATION_EXISTS}, {@code NO_RESERVATION}, {@code RESERVATION_TOO_SMALL}, 422 {@code STOCK_LIMIT_EXCEEDED}.
 */
@RestController
@RequestMapping("/api/products")
@Tag(name = "Products", description = "The product catalogue and its stock reservations")
public class ProductController {

    /** What the products' idempotency keys are unique within. */
    static final String IDEMPOTENCY_SCOPE = "products";

    private final ProductCatalog catalog;
    private final IdempotentRequests idempotency;

    public ProductController(ProductCatalog catalog, IdempotentRequests idempotency) {
        this.catalog = catalog;
        this.idempotency = idempotency;
    }

    @PostMapping
    @Operation(
            summary = "Add a product; its SKU must be new",
            description = "With an Idempotency-Key, the same request made again adds nothing and is answered with the"
                    + " product the first one added, as it is now (Idempotent-Replayed: true); the key with another"
                    + " request is 422 IDEMPOTENCY_KEY_REUSED (ADR 0070).")
    @Parameter(
            in = ParameterIn.HEADER,
            name = IdempotentRequests.HEADER,
            schema = @Schema(type = "string", minLength = 1, maxLength = IdempotentRequests.MAX_LENGTH),
            description = "A new key, say a UUID, per product")
    ResponseEntity<ProductView> create(@Valid @RequestBody CreateProductRequest request) {
        IdempotencyKey key = idempotency.key(IDEMPOTENCY_SCOPE, request);
        try {
            ProductView created = answer(() -> catalog.create(
                    new NewProduct(
                            request.sku(),
                            request.name(),
                            request.description(),
                            request.price(),
                            request.quantityOnHand(),
                            request.category()),
                    RequestMetadata.current(),
                    key));
            return created(created).body(created);
        } catch (IdempotencyKeyUsedException used) {
            UUID productId = StockLedger.productOf(idempotency.replayedStream(used));
            ProductView created = catalog.find(productId).orElseThrow(() -> notFound(productId));
            return created(created).header(IdempotentRequests.REPLAYED, "true").body(created);
        }
    }

    private static ResponseEntity.BodyBuilder created(ProductView product) {
        return ResponseEntity.created(URI.create("/api/products/" + product.productId()));
    }

    @GetMapping("/{productId}")
    @Operation(summary = "One product with its stock")
    ProductView get(@PathVariable UUID productId) {
        return catalog.find(productId).orElseThrow(() -> notFound(productId));
    }

    @GetMapping
    @Operation(summary = "The first products in creation order")
    List<ProductView> list(@RequestParam(defaultValue = "20") @Min(1) @Max(100) int limit) {
        return catalog.list(limit);
    }

    @PostMapping("/{productId}/stock/reserve")
    @Operation(summary = "Hold units for an order; repeating the same request changes nothing")
    ProductView reserve(@PathVariable UUID productId, @Valid @RequestBody ReserveStockRequest request) {
        return answer(
                () -> catalog.reserve(productId, request.orderId(), request.quantity(), RequestMetadata.current()));
    }

    @PostMapping("/{productId}/stock/release")
    @Operation(summary = "Give back units an order holds")
    ProductView release(@PathVariable UUID productId, @Valid @RequestBody ReleaseStockRequest request) {
        return answer(() -> catalog.release(
                productId, request.orderId(), request.quantity(), request.reason(), RequestMetadata.current()));
    }

    @PostMapping("/{productId}/stock/replenish")
    @Operation(summary = "Add units to the stock on hand")
    ProductView replenish(@PathVariable UUID productId, @Valid @RequestBody ReplenishStockRequest request) {
        return answer(
                () -> catalog.replenish(productId, request.quantity(), request.reason(), RequestMetadata.current()));
    }

    private static ProductView answer(Supplier<ProductView> useCase) {
        try {
            return useCase.get();
        } catch (ProductNotFound e) {
            throw notFound(e.productId());
        } catch (SkuAlreadyExists e) {
            throw new ApiException(HttpStatus.CONFLICT, "SKU_ALREADY_EXISTS", e.getMessage(), Map.of("sku", e.sku()));
        } catch (StockRejected e) {
            throw problem(e);
        }
    }

    private static ApiException notFound(UUID productId) {
        return ApiException.notFound("PRODUCT_NOT_FOUND", "Product", productId);
    }

    private static ApiException problem(StockRejected rejected) {
        Map<String, Object> amounts = new LinkedHashMap<>();
        if (rejected.available() >= 0) {
            String label = switch (rejected.reason()) {
                case INSUFFICIENT_STOCK -> "available";
                case STOCK_LIMIT_EXCEEDED -> "quantityOnHand";
                case RESERVATION_EXISTS, NO_RESERVATION, RESERVATION_TOO_SMALL, PRODUCT_EXISTS, PRODUCT_NOT_FOUND ->
                    "reserved";
            };
            amounts.put(label, rejected.available());
        }
        if (rejected.requested() >= 0) {
            amounts.put("requested", rejected.requested());
        }
        HttpStatus status = switch (rejected.reason()) {
            case INSUFFICIENT_STOCK, RESERVATION_EXISTS, NO_RESERVATION, RESERVATION_TOO_SMALL, PRODUCT_EXISTS ->
                HttpStatus.CONFLICT;
            case STOCK_LIMIT_EXCEEDED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case PRODUCT_NOT_FOUND -> HttpStatus.NOT_FOUND;
        };
        return new ApiException(status, rejected.reason().name(), rejected.getMessage(), amounts);
    }
}
