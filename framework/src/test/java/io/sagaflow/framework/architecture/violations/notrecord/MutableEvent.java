package io.sagaflow.framework.architecture.violations.notrecord;

import io.sagaflow.framework.domain.DomainEvent;

/** Breaks the rule on purpose: an event that is not a record. */
public class MutableEvent implements DomainEvent {
    public String value;
}
