/** The payments REST API under {@code /api/payments}. */
package io.sagaflow.payment.payments.adapter.web;
