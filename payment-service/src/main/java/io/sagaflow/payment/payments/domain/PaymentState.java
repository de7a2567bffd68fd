package io.sagaflow.payment.payments.domain;

import java.math.BigDecimal;

/** Where one payment stands. A payment is created captured or declined; only a captured one is ever refunded. */
public sealed interface PaymentState {

    /** No payment with this id exists. */
    record NotCreated() implements PaymentState {}

    /** Asked for, not yet decided; never seen outside an append, which always carries the outcome too. */
    record Initiated(PaymentInitiated payment) implements PaymentState {}

    /** The amount was charged and is outstanding. */
    record Captured(PaymentInitiated payment) implements PaymentState {}

    /** The charge was refused; nothing is outstanding. */
    record Declined(PaymentInitiated payment, String code) implements PaymentState {}

    /** The amount was charged and refunded in full. */
    record Refunded(PaymentInitiated payment, BigDecimal refunded) implements PaymentState {}
}
