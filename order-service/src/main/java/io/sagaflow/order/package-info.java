/** The order service. */
package io.sagaflow.order;
