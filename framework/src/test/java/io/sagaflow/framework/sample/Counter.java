package io.sagaflow.framework.sample;

import io.sagaflow.framework.domain.Command;
import io.sagaflow.framework.domain.Decider;
import io.sagaflow.framework.domain.DomainEvent;
import io.sagaflow.framework.eventstore.EventTypeRegistry;
import java.util.List;

/** A tiny aggregate for the framework's own tests: a counter that can be opened and incremented up to a limit. */
public final class Counter implements Decider<Counter.CounterCommand, Counter.State, Counter.CounterEvent> {

    public sealed interface CounterCommand extends Command {}

    public record Open(String name, int limit) implements CounterCommand {}

    public record Increment(int by) implements CounterCommand {}

    public sealed interface CounterEvent extends DomainEvent {}

    public record Opened(String name, int limit) implements CounterEvent {}

    /** Schema v2: v1 called the field {@code amount}. */
    public record Incremented(int by) implements CounterEvent {}

    public record LimitReached(int value) implements CounterEvent {}

    public record State(boolean open, int value, int limit) {}

    /** The publisher the counter's published events are registered under. */
    public static final String PUBLISHER = "counter";

    /** The registry: Opened and Incremented published, Incremented at v2 with an upcaster from v1. */
    public static EventTypeRegistry registry() {
        return EventTypeRegistry.builder()
                .registerPublished(PUBLISHER, "CounterOpened", Opened.class)
                .register("CounterIncremented", Incremented.class, 2, PUBLISHER)
                .upcast("CounterIncremented", 1, node -> {
                    node.set("by", node.remove("amount"));
                    return node;
                })
                .register("CounterLimitReached", LimitReached.class)
                .build();
    }

    @Override
    public State initialState() {
        return new State(false, 0, 0);
    }

    @Override
    public List<CounterEvent> decide(CounterCommand command, State state) {
        return switch (command) {
            case Open open -> state.open() ? List.of() : List.of(new Opened(open.name(), open.limit()));
            case Increment increment -> {
                if (!state.open()) {
                    throw new IllegalStateException("counter not open");
                }
                int next = state.value() + increment.by();
                yield next >= state.limit()
                        ? List.of(new Incremented(increment.by()), new LimitReached(next))
                        : List.of(new Incremented(increment.by()));
            }
        };
    }

    @Override
    public State evolve(State state, CounterEvent event) {
        return switch (event) {
            case Opened opened -> new State(true, 0, opened.limit());
            case Incremented incremented -> new State(true, state.value() + incremented.by(), state.limit());
            case LimitReached reached -> state;
        };
    }
}
