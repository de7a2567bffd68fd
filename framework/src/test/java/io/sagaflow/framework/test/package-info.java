/** Test support every service reuses, published as the framework's test-jar. */
package io.sagaflow.framework.test;
