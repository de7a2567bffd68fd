/** Products and their stock: the catalogue, reservations by order, releases and replenishments. */
package io.sagaflow.inventory.product;
