package io.sagaflow.payment.payments.domain;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/**
 * Charge {@code amount} to {@code customerId} for {@code orderId}, if the authorisation rule allows it. Everything the
 * rule needs comes with the command: the customer's credit position (read under its lock) and whether the order was
 * already cancelled.
 *
 * @param paymentId the new payment's id (random for an HTTP payment, derived from the order for a saga one)
 * @param orderId the order paid for
 * @param customerId who pays; null only for a malformed saga request, which is declined
 * @param amount the amount, scale 2; null or not positive only for a malformed saga request, which is declined
 * @param currency ISO 4217 code
 * @param method payment method, e.g. {@code CARD}
 * @param credit the customer's credit position; null only when {@code customerId} is null
 * @param orderCancelled whether a refund was already requested for the order, so it must not be charged
 */
public record AuthorisePayment(
        UUID paymentId,
        UUID orderId,
        UUID customerId,
        BigDecimal amount,
        String currency,
        String method,
        CreditPosition credit,
        boolean orderCancelled)
        implements PaymentCommand {

    public AuthorisePayment {
        Objects.requireNonNull(paymentId, "paymentId");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(method, "method");
        amount = Money.of(amount);
    }
}
