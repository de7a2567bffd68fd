package io.sagaflow.order.contracts;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * The saga asks payment to charge the order total (saga step 3), once its stock is reserved. Since ADR 0055 payment
 * charges on inventory's {@code StockReserved} instead, and only a saga inbox written before it still leads a saga
 * to append this request; payment honours both and charges an order once.
 */
public record PaymentRequested(UUID orderId, UUID customerId, BigDecimal amount) implements OrderEvent {}
