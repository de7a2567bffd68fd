package io.sagaflow.framework.consumer;

/** How a consumer turns at-least-once delivery into effects that happen once (ADR 0004, ADR 0020). */
public enum Deduplication {

    /**
     * A processed-event record, inserted in the transaction the handler's effects join: a delivery whose record
     * exists is skipped. For handlers whose effects are rows in the service's database. The default.
     */
    RECORDED,

    /**
     * None at the consumer: every delivery reaches the handler, outside any transaction. Only for a handler whose
     * effect is idempotent by itself, such as a put keyed by the event id into a structure whose reader is
     * idempotent in turn; choosing it is a claim the handler's tests must prove.
     */
    BY_HANDLER
}
