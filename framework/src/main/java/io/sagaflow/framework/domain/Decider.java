package io.sagaflow.framework.domain;

import java.util.List;

/**
 * An aggregate as two pure functions. {@link #decide} turns a command and the current state into the events that
 * happen; {@link #evolve} folds one event into the state. Neither may read clocks, generate ids or do I/O: whatever
 * they need comes in with the command.
 *
 * @param <C> the command type, usually a sealed interface of records
 * @param <S> the state type, an immutable record or sealed family of records
 * @param <E> the event type, usually a sealed interface of records
 */
public interface Decider<C, S, E> {

    /** The state of a stream that has no events yet. */
    S initialState();

    /** The events that {@code command} causes in {@code state}; empty when nothing happens. */
    List<E> decide(C command, S state);

    /** The state after {@code event}. */
    S evolve(S state, E event);

    /** Folds {@code events} into {@code state}, in order. */
    default S evolveAll(S state, List<? extends E> events) {
        S current = state;
        for (E event : events) {
            current = evolve(current, event);
        }
        return current;
    }
}
