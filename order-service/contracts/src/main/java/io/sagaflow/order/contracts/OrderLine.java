package io.sagaflow.order.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/** One line item of an order. */
public record OrderLine(UUID productId, int quantity, BigDecimal unitPrice) {}
