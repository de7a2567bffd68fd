/** The audit report and the query that produces it. */
package io.sagaflow.payment.audit.application;
