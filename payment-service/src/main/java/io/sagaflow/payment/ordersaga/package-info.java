/** The payment service's part in the order fulfilment saga: charge on request, refund on compensation. */
package io.sagaflow.payment.ordersaga;
