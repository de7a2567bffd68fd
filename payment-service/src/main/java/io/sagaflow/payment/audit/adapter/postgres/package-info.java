/** The audit totals, summed from the payment view. */
package io.sagaflow.payment.audit.adapter.postgres;
