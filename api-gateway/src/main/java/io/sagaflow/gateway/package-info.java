/** The API gateway: the single entry point for clients. */
package io.sagaflow.gateway;
