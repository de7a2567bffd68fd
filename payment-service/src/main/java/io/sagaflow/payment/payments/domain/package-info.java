/** The payment aggregate as a pure decider: the authorisation rule, refunds and the state they act on. */
package io.sagaflow.payment.payments.domain;
