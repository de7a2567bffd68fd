/** Pure rules of the saga participation: an order's payment id, and what a refund request leads to. */
package io.sagaflow.payment.ordersaga.domain;
