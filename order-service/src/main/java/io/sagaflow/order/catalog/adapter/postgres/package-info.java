/** The copies' tables and queries. */
package io.sagaflow.order.catalog.adapter.postgres;
