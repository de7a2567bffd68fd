/** The saga view: a projection of the order streams, and its queries. */
package io.sagaflow.order.fulfilment.adapter.postgres;
