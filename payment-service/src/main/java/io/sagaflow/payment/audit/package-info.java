/** The operator's audit of money per order, for the order service's invariant check. */
package io.sagaflow.payment.audit;
