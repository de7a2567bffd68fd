/** The payment service. */
package io.sagaflow.payment;
