/** Payments: charging an amount under the authorisation rule, refunding it, and the views that show both. */
package io.sagaflow.payment.payments;
