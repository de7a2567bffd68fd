/**
 * HTTP conventions every service shares: RFC 9457 problem details with a stable {@code code}, and correlation and
 * W3C trace context taken from each request into the events it causes.
 */
package io.sagaflow.framework.web;
