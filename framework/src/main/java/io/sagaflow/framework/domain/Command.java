package io.sagaflow.framework.domain;

/** Marker for a command: an immutable record in the imperative ({@code PlaceOrder}) that a decider decides on. */
public interface Command {}
