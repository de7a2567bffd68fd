/**
 * Work that must wait for the current transaction's commit (cache evictions, relay wake-ups), and which failures of a
 * transaction pass by themselves.
 */
package io.sagaflow.framework.transaction;
