package io.sagaflow.payment.payments.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Money amounts as {@link BigDecimal} with scale 2, rounded half-even: the only form amounts take in this service. */
public final class Money {

    public static final int SCALE = 2;

    public static final BigDecimal ZERO = BigDecimal.ZERO.setScale(SCALE, RoundingMode.HALF_EVEN);

    private Money() {}

    /** {@code amount} at scale 2 (half-even), or null for null. */
    public static BigDecimal of(BigDecimal amount) {
        return amount == null ? null : amount.setScale(SCALE, RoundingMode.HALF_EVEN);
    }

    /** The amount written as {@code text} (e.g. {@code "10000.00"}) at scale 2. */
    public static BigDecimal of(String text) {
        return of(new BigDecimal(text));
    }
}
