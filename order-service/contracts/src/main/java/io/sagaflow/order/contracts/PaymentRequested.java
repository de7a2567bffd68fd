package io.sagaflow.order.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/** The saga asks payment to charge the order total (saga step 3), once its stock is reserved. */
public record PaymentRequested(UUID orderId, UUID customerId, BigDecimal amount) implements OrderEvent {}
