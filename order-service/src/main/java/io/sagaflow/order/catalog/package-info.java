/** Copies of the customers and products the order service checks orders against, fed by their services' events. */
package io.sagaflow.order.catalog;
