/** The audit's HTTP endpoint and its PostgreSQL query. */
package io.sagaflow.payment.audit.adapter;
