package io.sagaflow.payment.payments.application;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * What a payment is asked for.
 *
 * @param orderId the order paid for
 * @param customerId who pays
 * @param amount how much
 * @param currency ISO 4217 code
 * @param method payment method
 */
public record NewPayment(UUID orderId, UUID customerId, BigDecimal amount, String currency, String method) {

    public static final String DEFAULT_CURRENCY = "USD";
    public static final String DEFAULT_METHOD = "CARD";

    public NewPayment {
        currency = currency == null ? DEFAULT_CURRENCY : currency;
        method = method == null ? DEFAULT_METHOD : method;
    }
}
