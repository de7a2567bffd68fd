package io.sagaflow.archfixture.billing.contracts;

/** Another service's message contract, which any service may use. */
public record InvoiceIssued(String id) {}
