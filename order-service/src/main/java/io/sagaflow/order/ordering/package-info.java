/** Orders: placing, cancelling and reading them. */
package io.sagaflow.order.ordering;
