/** Product use cases: the catalogue API and the stock ledger that serialises every stock change per product. */
package io.sagaflow.inventory.product.application;
