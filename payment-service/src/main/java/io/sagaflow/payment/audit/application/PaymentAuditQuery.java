package io.sagaflow.payment.audit.application;

/** Computes the {@link PaymentAudit} from the committed payments. */
public interface PaymentAuditQuery {

    PaymentAudit audit();
}
