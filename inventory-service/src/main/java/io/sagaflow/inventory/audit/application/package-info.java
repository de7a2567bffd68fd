/** The stock audit: whether every product's reserved units match its active reservations and its stock. */
package io.sagaflow.inventory.audit.application;
