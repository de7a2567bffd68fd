/** Spring Boot auto-configuration that wires the framework into every service. */
package io.sagaflow.framework.autoconfigure;
