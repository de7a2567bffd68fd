package io.sagaflow.framework.consumer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/deadletters}: the messages this service's consumers gave up on (ADR 0100). A GET lists every
 * consumer's count and the oldest letters with their failures; a POST has every running consumer try its letters again
 * now, as it does at each start, once their cause is fixed without a restart.
 */
@Endpoint(id = "deadletters")
public class DeadLettersEndpoint {

    /** The most letters a GET lists. */
    static final int LISTED = 100;

    private final DeadLetters deadLetters;
    private final EventSubscriber subscriber;

    public DeadLettersEndpoint(DeadLetters deadLetters, EventSubscriber subscriber) {
        this.deadLetters = deadLetters;
        this.subscriber = subscriber;
    }

    @ReadOperation
    public Map<String, Object> deadLetters() {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("counts", deadLetters.counts());
        answer.put("oldest", deadLetters.oldest(LISTED));
        return answer;
    }

    @WriteOperation
    public Map<String, Object> redrive() {
        return Map.of("redriving", subscriber.redrive());
    }
}
