package io.sagaflow.framework.test.decider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sagaflow.framework.domain.Decider;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;

/**
 * {@code given(events…).when(command).then(events…)} for a {@link Decider}: replays the given events through
 * {@code evolve}, decides the command, and compares the decided events.
 *
 * <pre>{@code
 * DeciderFixture.of(new OrderDecider())
 *     .given(new OrderPlaced(...))
 *     .when(new ConfirmOrder(...))
 *     .then(new OrderConfirmed(...));
 * }</pre>
 *
 * @param <C> command type
 * @param <S> state type
 * @param <E> event type
 */
public final class DeciderFixture<C, S, E> {

    private final Decider<C, S, E> decider;

    private DeciderFixture(Decider<C, S, E> decider) {
        this.decider = decider;
    }

    public static <C, S, E> DeciderFixture<C, S, E> of(Decider<C, S, E> decider) {
        return new DeciderFixture<>(decider);
    }

    /** The history before the command. */
    @SafeVarargs
    public final Given given(E... history) {
        return new Given(decider.evolveAll(decider.initialState(), List.of(history)));
    }

    /** A history of nothing. */
    public Given givenNothing() {
        return new Given(decider.initialState());
    }

    /** The state built from the history. */
    public final class Given {
        private final S state;

        private Given(S state) {
            this.state = state;
        }

        public When when(C command) {
            return new When(state, command);
        }

        /** The state the history leads to, for assertions on {@code evolve}. */
        public S state() {
            return state;
        }
    }

    /** A command decided on the given state. */
    public final class When {
        private final S state;
        private final C command;

        private When(S state, C command) {
            this.state = state;
            this.command = command;
        }

        /** Asserts that exactly {@code expected} are decided, in order. */
        @SafeVarargs
        public final S then(E... expected) {
            List<E> decided = decider.decide(command, state);
            assertThat(decided).containsExactly(expected);
            return decider.evolveAll(state, decided);
        }

        /** Asserts that nothing happens. */
        public void thenNothing() {
            assertThat(decider.decide(command, state)).isEmpty();
        }

        /** Asserts that the decision is refused with {@code type}. */
        public AbstractThrowableAssert<?, ? extends Throwable> thenRejectedWith(Class<? extends Throwable> type) {
            return assertThatThrownBy(() -> decider.decide(command, state)).isInstanceOf(type);
        }
    }
}
