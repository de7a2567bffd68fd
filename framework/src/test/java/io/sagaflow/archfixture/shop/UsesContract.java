package io.sagaflow.archfixture.shop;

import io.sagaflow.archfixture.billing.contracts.InvoiceIssued;

/** Uses another service's contract only: allowed. */
public class UsesContract {
    InvoiceIssued invoice;
}
