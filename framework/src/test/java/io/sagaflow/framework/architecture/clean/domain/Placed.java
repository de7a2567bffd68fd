package io.sagaflow.framework.architecture.clean.domain;

import io.sagaflow.framework.domain.DomainEvent;

/** A well-formed event. */
public record Placed(String id) implements DomainEvent {}
