/** {@code GET /api/admin/audit/payments}. */
package io.sagaflow.payment.audit.adapter.web;
