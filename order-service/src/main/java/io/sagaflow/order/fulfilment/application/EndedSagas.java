package io.sagaflow.order.fulfilment.application;

import io.sagaflow.order.fulfilment.domain.SagaStatus;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Which sagas have ended for good ({@link SagaStatus#isFinal() confirmed or cancelled}) as far as the caller's
 * transaction sees what has committed. No message changes such a saga, so the runner decides a message for one without
 * reading its stream: answers delivered again after a saga ended (a replay of a topic, ADR 0093) cost a look-up, not a
 * read of the whole stream (ADR 0094).
 */
@FunctionalInterface
public interface EndedSagas {

    /** Of {@code orderIds}, those whose saga ended for good, each with the status it ended in. */
    Map<UUID, SagaStatus> among(Collection<UUID> orderIds);
}
