/** The stock audit's reads of the product read model. */
package io.sagaflow.inventory.audit.adapter.postgres;
