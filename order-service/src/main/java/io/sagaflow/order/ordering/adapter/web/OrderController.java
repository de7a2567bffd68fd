package io.sagaflow.order.ordering.adapter.web;

import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import io.sagaflow.framework.projection.ViewCache;
import io.sagaflow.framework.web.ApiException;
import io.sagaflow.framework.web.IdempotentRequests;
import io.sagaflow.framework.web.LongPoll;
import io.sagaflow.framework.web.RequestMetadata;
import io.sagaflow.order.ordering.adapter.postgres.OrderQueries;
import io.sagaflow.order.ordering.application.OrderPlacement;
import io.sagaflow.order.ordering.application.OrderPlacement.PlaceOrder;
import io.sagaflow.order.ordering.application.OrderPlacement.RequestedLine;
import io.sagaflow.order.ordering.application.OrderView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/orders}: place, read and cancel orders. */
@RestController
@RequestMapping("/api/orders")
@Tag(name = "Orders")
public class OrderController {

    /** A new order. */
    public record PlaceOrderRequest(
            @NotNull UUID customerId,
            @NotEmpty @Size(max = 100) List<@Valid @NotNull LineItemRequest> lineItems,
            @NotBlank @Size(max = 500) String shippingAddress) {}

    /** One line of a new order; without a unit price the catalogue price applies. */
    public record LineItemRequest(
            @NotNull UUID productId,
            @Positive @Max(10_000) int quantity,
            @DecimalMin(value = "0.01") BigDecimal unitPrice) {}

    /** Why and by whom an order is cancelled. */
    public record CancelOrderRequest(
            @NotBlank @Size(max = 500) String reason,
            @Size(max = 100) String cancelledBy) {}

    /** What the orders' idempotency keys are unique within. */
    static final String IDEMPOTENCY_SCOPE = "orders";

    private final OrderPlacement placement;
    private final OrderQueries queries;
    private final ViewCache<OrderView> cache;
    private final Duration maxPollWait;
    private final IdempotentRequests idempotency;

    public OrderController(
            OrderPlacement placement,
            OrderQueries queries,
            ViewCache<OrderView> cache,
            @Value("${sagaflow.order.poll.max-wait:20s}") Duration maxPollWait,
            IdempotentRequests idempotency) {
        this.placement = placement;
        this.queries = queries;
        this.cache = cache;
        this.maxPollWait = maxPollWait;
        this.idempotency = idempotency;
    }

    @PostMapping
    @Operation(
            summary = "Place an order: PENDING until its saga confirms or cancels it",
            description = "With an Idempotency-Key, the same request made again places nothing and is answered with"
                    + " the order the first one placed, as it is now (Idempotent-Replayed: true); the key with another"
                    + " request is 422 IDEMPOTENCY_KEY_REUSED (ADR 0070).")
    @Parameter(
            in = ParameterIn.HEADER,
            name = IdempotentRequests.HEADER,
            schema = @Schema(type = "string", minLength = 1, maxLength = IdempotentRequests.MAX_LENGTH),
            description = "A new key, say a UUID, per order")
    ResponseEntity<OrderView> place(@Valid @RequestBody PlaceOrderRequest request) {
        IdempotencyKey key = idempotency.key(IDEMPOTENCY_SCOPE, request);
        try {
            OrderView placed = placement.place(
                    new PlaceOrder(
                            request.customerId(),
                            request.lineItems().stream()
                                    .map(l -> new RequestedLine(l.productId(), l.quantity(), l.unitPrice()))
                                    .toList(),
                            request.shippingAddress()),
                    RequestMetadata.current(),
                    key);
            return created(placed).body(placed);
        } catch (IdempotencyKeyUsedException used) {
            UUID orderId = OrderPlacement.orderOf(idempotency.replayedStream(used));
            OrderView placed =
                    queries.find(orderId).orElseThrow(() -> ApiException.notFound("ORDER_NOT_FOUND", "Order", orderId));
            return created(placed).header(IdempotentRequests.REPLAYED, "true").body(placed);
        }
    }

    private static ResponseEntity.BodyBuilder created(OrderView order) {
        return ResponseEntity.created(URI.create("/api/orders/" + order.orderId()))
                .eTag(etag(order));
    }

    @GetMapping("/{orderId}")
    @Operation(
            summary = "An order with its current status (and the reason, once cancelled)",
            description = "Carries an ETag. With If-None-Match naming it, 304 while the order is unchanged; add"
                    + " 'Prefer: wait=N' to wait up to N seconds (at most sagaflow.order.poll.max-wait) for a change"
                    + " instead of asking again: the answer comes as soon as the saga moves the order on (ADR 0025).")
    ResponseEntity<OrderView> get(@PathVariable UUID orderId, HttpServletRequest request) {
        return LongPoll.read(
                request,
                cache,
                orderId.toString(),
                OrderController::etag,
                maxPollWait,
                () -> ApiException.notFound("ORDER_NOT_FOUND", "Order", orderId));
    }

    @GetMapping("/customer/{customerId}")
    @Operation(summary = "A customer's orders, newest first")
    List<OrderView> ofCustomer(
            @PathVariable UUID customerId, @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit) {
        return queries.ofCustomer(customerId, limit);
    }

    @PatchMapping("/{orderId}/cancel")
    @Operation(summary = "Ask to cancel a pending order; its saga undoes what was done, then cancels it")
    OrderView cancel(@PathVariable UUID orderId, @Valid @RequestBody CancelOrderRequest request) {
        OrderView order =
                queries.find(orderId).orElseThrow(() -> ApiException.notFound("ORDER_NOT_FOUND", "Order", orderId));
        placement.requestCancellation(
                order,
                request.reason(),
                request.cancelledBy() == null ? "customer" : request.cancelledBy(),
                RequestMetadata.current());
        return order;
    }

    /** Status and last change, to the microsecond the database keeps: every change of an order moves one of them. */
    static String etag(OrderView order) {
        long micros = order.updatedAt() == null ? 0 : ChronoUnit.MICROS.between(Instant.EPOCH, order.updatedAt());
        return "\"" + order.status() + "-" + Long.toString(micros, 36) + "\"";
    }
}
