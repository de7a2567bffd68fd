/** The admin endpoint of the stock audit. */
package io.sagaflow.inventory.audit.adapter.web;
