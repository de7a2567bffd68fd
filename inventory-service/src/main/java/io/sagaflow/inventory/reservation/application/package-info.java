/** The inventory side of the order saga: reserving an order's stock all or nothing, and releasing it once. */
package io.sagaflow.inventory.reservation.application;
