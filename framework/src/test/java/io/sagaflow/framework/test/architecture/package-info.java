/** The architecture rules every service enforces with one line. */
package io.sagaflow.framework.test.architecture;
