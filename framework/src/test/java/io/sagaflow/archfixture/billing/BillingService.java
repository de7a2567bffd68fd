package io.sagaflow.archfixture.billing;

/** Another service's implementation, which no service may use. */
public class BillingService {}
