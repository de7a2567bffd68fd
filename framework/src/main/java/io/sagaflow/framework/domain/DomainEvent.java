package io.sagaflow.framework.domain;

/**
 * Marker for a domain event: an immutable record in the past tense ({@code OrderPlaced}). It carries only business
 * facts; identity, versions, timestamps and tracing live in the framework's {@code EventEnvelope}.
 */
public interface DomainEvent {}
