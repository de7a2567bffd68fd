/** The customers REST API under {@code /api/customers}, with RFC 9457 problems for every refusal. */
package io.sagaflow.account.customer.adapter.web;
