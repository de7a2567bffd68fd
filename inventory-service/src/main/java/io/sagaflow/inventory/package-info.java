/** The inventory service. */
package io.sagaflow.inventory;
