package io.sagaflow.order.ordering.application;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order as clients see it (field names kept from the API our users already script against).
 *
 * @param sagaId the id of the order's fulfilment saga: the order id
 * @param status PENDING, CONFIRMED or CANCELLED
 * @param cancellationCode why a cancelled order was cancelled (stable), else null
 * @param cancellationReason the same in words
 */
public record OrderView(
        UUID orderId,
        UUID sagaId,
        UUID customerId,
        List<LineItem> lineItems,
        BigDecimal subtotal,
        BigDecimal tax,
        BigDecimal total,
        String shippingAddress,
        String status,
        String cancellationCode,
        String cancellationReason,
        String cancelledBy,
        Instant createdAt,
        Instant updatedAt) {

    /** One line: {@code quantity} of {@code productId} at {@code unitPrice}, {@code lineTotal} in all. */
    public record LineItem(UUID productId, int quantity, BigDecimal unitPrice, BigDecimal lineTotal) {}
}
