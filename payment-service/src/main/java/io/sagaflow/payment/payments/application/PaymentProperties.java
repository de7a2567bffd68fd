package io.sagaflow.payment.payments.application;

import io.sagaflow.payment.payments.domain.Money;
import java.math.BigDecimal;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code sagaflow.payment.*}.
 *
 * @param creditLimit the most a customer may have outstanding (captured minus refunded), default 50 000.00
 */
@ConfigurationProperties("sagaflow.payment")
public record PaymentProperties(@DefaultValue("50000.00") BigDecimal creditLimit) {

    public PaymentProperties {
        if (creditLimit == null || creditLimit.signum() < 0) {
            throw new IllegalArgumentException("sagaflow.payment.credit-limit must be >= 0, was " + creditLimit);
        }
        creditLimit = Money.of(creditLimit);
    }
}
