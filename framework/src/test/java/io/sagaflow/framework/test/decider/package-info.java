/** Given/when/then fixtures for deciders. */
package io.sagaflow.framework.test.decider;
