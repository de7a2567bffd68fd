/** Use cases on orders: place one, ask to cancel one. */
package io.sagaflow.order.ordering.application;
