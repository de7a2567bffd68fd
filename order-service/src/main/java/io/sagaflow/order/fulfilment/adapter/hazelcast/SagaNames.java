package io.sagaflow.order.fulfilment.adapter.hazelcast;

/** Names of the saga's structures on the order service's cluster. */
public final class SagaNames {

    /** Messages for sagas, partitioned by order id, with an event journal the saga job reads. */
    public static final String INBOX = "saga.inbox";

    /** One timer per running saga, expiring at its deadline; partitioned by order id like the inbox. */
    public static final String DEADLINES = "saga.deadlines";

    /** Cache of {@code order_view}. */
    public static final String ORDER_VIEWS = "order.views";

    /** Cache of {@code saga_view}. */
    public static final String SAGA_VIEWS = "saga.views";

    /** The Jet job that runs the sagas. */
    public static final String JOB = "order-fulfilment-saga";

    private SagaNames() {}
}
