/** The subscription of the order saga's requests on the shared topic. */
package io.sagaflow.inventory.reservation.adapter.messaging;
