/** Measures what reading an event's JSON costs with Jackson's creator path and with the framework's (ADR 0060). */
package io.sagaflow.perf.json;
