/** The order view: a projection of the order streams, and its queries. */
package io.sagaflow.order.ordering.adapter.postgres;
