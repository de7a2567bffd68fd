/** Products and their stock as a pure decider: what a reservation, release or replenishment does to one product. */
package io.sagaflow.inventory.product.domain;
