/** Work that must wait for the current transaction's commit: cache evictions, relay wake-ups. */
package io.sagaflow.framework.transaction;
