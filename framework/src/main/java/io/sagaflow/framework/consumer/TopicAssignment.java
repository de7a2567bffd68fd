package io.sagaflow.framework.consumer;

import io.sagaflow.framework.messaging.ReliableTopicEventBus.Subscription;
import java.util.List;
import java.util.function.Function;

/** Which of a consumer's topics this replica listens to (ADR 0080). */
@FunctionalInterface
public interface TopicAssignment {

    /**
     * Listens to this replica's part of {@code topics} through {@code subscribeTopic}, for as long as the returned
     * subscription is not cancelled; the part may change meanwhile.
     */
    Subscription subscribe(String consumer, List<String> topics, Function<String, Subscription> subscribeTopic);

    /** Every topic on every replica: each replica receives every message, and all but one find it handled. */
    static TopicAssignment everyTopic() {
        return (consumer, topics, subscribeTopic) -> {
            List<Subscription> subscriptions =
                    topics.stream().map(subscribeTopic).toList();
            return () -> subscriptions.forEach(Subscription::cancel);
        };
    }
}
