/** Measures the shared topic kinds on this machine, to choose one by numbers (ADR 0005). */
package io.sagaflow.perf.topic;
