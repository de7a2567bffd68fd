package io.sagaflow.payment.payments.adapter.web;

import io.sagaflow.payment.payments.application.NewPayment;
import io.sagaflow.payment.payments.domain.Money;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.math.BigDecimal;
import java.util.UUID;

/**
 * Body of {@code POST /api/payments}. The amount is rounded half-even to cents, so it must be at least 0.01.
 *
 * @param orderId the order paid for
 * @param customerId who pays
 * @param amount how much, at least 0.01
 * @param currency ISO 4217 code in capitals; {@code USD} when absent
 * @param method payment method in capitals (e.g. {@code CARD}, {@code BANK_TRANSFER}); {@code CARD} when absent
 */
record CreatePaymentRequest(
        @NotNull UUID orderId,
        @NotNull UUID customerId,

        @NotNull @DecimalMin(value = "0.01", message = "must be at least 0.01")
        BigDecimal amount,

        @Pattern(regexp = "[A-Z]{3}", message = "must be a three-letter ISO 4217 code such as USD")
        String currency,

        @Pattern(regexp = "[A-Z][A-Z_]{1,31}", message = "must be a method name in capitals such as CARD")
        String method) {

    NewPayment toNewPayment() {
        return new NewPayment(orderId, customerId, Money.of(amount), currency, method);
    }
}
