package io.sagaflow.framework.sample;

import io.sagaflow.framework.sample.Counter.Increment;
import io.sagaflow.framework.sample.Counter.Incremented;
import io.sagaflow.framework.sample.Counter.LimitReached;
import io.sagaflow.framework.sample.Counter.Open;
import io.sagaflow.framework.sample.Counter.Opened;
import io.sagaflow.framework.test.decider.DeciderFixture;
import org.junit.jupiter.api.Test;

class CounterDeciderTest {

    private final DeciderFixture<Counter.CounterCommand, Counter.State, Counter.CounterEvent> counter =
            DeciderFixture.of(new Counter());

    @Test
    void givenNothing_whenOpened_thenCounterOpened() {
        counter.givenNothing().when(new Open("c", 3)).then(new Opened("c", 3));
    }

    @Test
    void givenOpened_whenIncrementedToLimit_thenLimitReached() {
        counter.given(new Opened("c", 3), new Incremented(2))
                .when(new Increment(1))
                .then(new Incremented(1), new LimitReached(3));
    }

    @Test
    void givenOpened_whenOpenedAgain_thenNothingHappens() {
        counter.given(new Opened("c", 3)).when(new Open("c", 5)).thenNothing();
    }

    @Test
    void givenNothing_whenIncremented_thenRejected() {
        counter.givenNothing().when(new Increment(1)).thenRejectedWith(IllegalStateException.class);
    }
}
