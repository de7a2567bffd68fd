/** The admin endpoints of the stock audit: the per-product figures and the paged reservations. */
package io.sagaflow.inventory.audit.adapter.web;
