/** Keeps the copies current from the shared topic. */
package io.sagaflow.order.catalog.application;
