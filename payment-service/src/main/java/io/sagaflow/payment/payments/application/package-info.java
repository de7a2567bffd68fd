/** Use cases on payments: authorise and refund atomically with the customer's credit, and read the payment view. */
package io.sagaflow.payment.payments.application;
