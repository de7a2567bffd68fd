/** The per-order transaction lock on PostgreSQL that serialises one order's saga requests across replicas. */
package io.sagaflow.payment.ordersaga.adapter.postgres;
