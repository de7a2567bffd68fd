/** The stock audit, an operator's check that reserved stock matches the reservations behind it. */
package io.sagaflow.inventory.audit;
