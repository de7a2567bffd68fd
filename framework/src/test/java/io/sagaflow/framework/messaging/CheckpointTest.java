package io.sagaflow.framework.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** Where a consumer resumes a topic on the ringbuffer the shared cluster holds (ADR 0089). */
class CheckpointTest {

    private static final long PUBLISHED = 1_764_500_000_123L;
    /** A ringbuffer holding sequences 10 to 20, message 14 published at PUBLISHED, the others a second later. */
    private static final LongUnaryOperator HELD = sequence -> sequence == 14 ? PUBLISHED : PUBLISHED + 1_000;

    @Test
    void resumesFromItsSequence_whenTheMessageBeforeItIsHeldAndWasPublishedWhenItSays() {
        assertThat(new Checkpoint(15, PUBLISHED).resumeOn(10, 20, HELD)).isEqualTo(15);
    }

    @Test
    void readsFromTheHead_whenTheMessageBeforeItWasPublishedAtAnotherTime() {
        assertThat(new Checkpoint(15, PUBLISHED - 1).resumeOn(10, 20, HELD)).isEqualTo(10);
    }

    @Test
    void readsFromTheHead_whenItIsPastTheRingbuffersEnd() {
        // A restarted ringbuffer, shorter than the one the checkpoint was taken on; an empty one too.
        assertThat(new Checkpoint(90, PUBLISHED).resumeOn(10, 20, HELD)).isEqualTo(10);
        assertThat(new Checkpoint(90, PUBLISHED).resumeOn(0, -1, HELD)).isZero();
    }

    @Test
    void resumesAtTheEnd_whenEveryMessageHeldWasHandled() {
        assertThat(new Checkpoint(21, PUBLISHED + 1_000).resumeOn(10, 20, HELD)).isEqualTo(21);
    }

    @Test
    void readsFromTheHead_whenTheMessageBeforeItIsNoLongerHeld() {
        // Expired: every message held is newer than the last one handled.
        assertThat(new Checkpoint(8, PUBLISHED).resumeOn(10, 20, HELD)).isEqualTo(10);
        assertThat(new Checkpoint(10, PUBLISHED).resumeOn(10, 20, HELD)).isEqualTo(10);
    }

    @Test
    void readsFromTheHead_whenThePublishTimeIsUnknownOrCannotBeRead() {
        assertThat(new Checkpoint(15, Checkpoint.UNKNOWN).resumeOn(10, 20, HELD))
                .isEqualTo(10);
        assertThat(new Checkpoint(15, PUBLISHED).resumeOn(10, 20, sequence -> Checkpoint.UNKNOWN))
                .isEqualTo(10);
    }

    @Test
    void hasNoNegativeSequence() {
        assertThatThrownBy(() -> new Checkpoint(-1, PUBLISHED)).isInstanceOf(IllegalArgumentException.class);
    }
}
