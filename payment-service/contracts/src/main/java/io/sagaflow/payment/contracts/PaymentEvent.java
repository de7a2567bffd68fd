package io.sagaflow.payment.contracts;

import io.sagaflow.framework.domain.DomainEvent;

/** An event the payment service publishes. */
public sealed interface PaymentEvent extends DomainEvent
        permits PaymentCaptured, PaymentDeclined, PaymentRefunded, RefundNotRequired {}
