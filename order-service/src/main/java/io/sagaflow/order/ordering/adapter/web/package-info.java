/** The orders REST API. */
package io.sagaflow.order.ordering.adapter.web;
