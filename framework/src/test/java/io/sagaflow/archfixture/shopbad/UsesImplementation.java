package io.sagaflow.archfixture.shopbad;

import io.sagaflow.archfixture.billing.BillingService;

/** Uses another service's implementation: forbidden. */
public class UsesImplementation {
    BillingService billing;
}
