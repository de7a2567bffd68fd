/** The product read model in PostgreSQL: its projection from the product streams and the queries and locks on it. */
package io.sagaflow.inventory.product.adapter.postgres;
