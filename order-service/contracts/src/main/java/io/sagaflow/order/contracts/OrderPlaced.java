package io.sagaflow.order.contracts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An order was placed, PENDING (saga step 1); inventory reserves its lines in answer. */
public record OrderPlaced(
        UUID orderId,
        UUID customerId,
        List<OrderLine> lines,
        BigDecimal subtotal,
        BigDecimal tax,
        BigDecimal total,
        String shippingAddress,
        Instant deadline)
        implements OrderEvent {}
