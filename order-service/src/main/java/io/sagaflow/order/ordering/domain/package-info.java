/** The order's own rules: pricing and the cancellation request. */
package io.sagaflow.order.ordering.domain;
