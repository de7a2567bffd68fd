package io.sagaflow.payment.payments.domain;

import io.sagaflow.framework.domain.Command;

/** A command on one payment stream ({@code payment-<paymentId>}). */
public sealed interface PaymentCommand extends Command permits AuthorisePayment, RefundPayment {}
