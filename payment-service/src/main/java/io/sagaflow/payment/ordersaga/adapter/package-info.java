/** Where the order saga's requests come from and how one order's requests are serialised. */
package io.sagaflow.payment.ordersaga.adapter;
