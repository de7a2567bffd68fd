/** Helpers for tests that watch the shared cluster's event topics. */
package io.sagaflow.framework.test.messaging;
