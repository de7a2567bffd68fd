/** Order reservations: the inventory service's part in the order saga, all lines or none, answered once. */
package io.sagaflow.inventory.reservation;
