/** The sagas REST API, the operators' quarantine API and the invariant audit. */
package io.sagaflow.order.fulfilment.adapter.web;
