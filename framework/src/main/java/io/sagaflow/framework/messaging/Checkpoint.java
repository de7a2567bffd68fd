package io.sagaflow.framework.messaging;

import java.util.function.LongUnaryOperator;

/**
 * Where a consumer resumes on one topic: the sequence of the next message to read, and when the message just before
 * it, the last one handled, was published (epoch milliseconds, as Hazelcast stamps it). The publish time ties the
 * sequence to one ringbuffer: a ringbuffer the shared cluster starts again (after a restart of the cluster, or the
 * loss of the topic's partition) counts from 0 again, and the same sequence there is another message (ADR 0089).
 *
 * <p>A consumer that has handled nothing on a topic yet has the checkpoint of its first subscription: the head it read
 * from, and a time before every message it needs, the publish time of the message at the head less a millisecond, or
 * the time it subscribed if there was none (ADR 0097). No message at {@code sequence - 1} has that time, so it is never
 * confirmed: the consumer resumes from the head, which is where it was unless messages expired or the ringbuffer is
 * another one, and then it asks for a replay since that time.
 *
 * @param sequence the sequence to read next
 * @param lastPublishTime the publish time of the message at {@code sequence - 1}, the time before every message a
 *     consumer that has handled none needs, or {@link #UNKNOWN}
 */
public record Checkpoint(long sequence, long lastPublishTime) {

    /** The publish time of a checkpoint stored before publish times were (or of none at all). */
    public static final long UNKNOWN = 0;

    public Checkpoint {
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, was " + sequence);
        }
    }

    /**
     * Where to resume on a ringbuffer that holds sequences {@code head} to {@code tail}: this checkpoint's sequence
     * if the ringbuffer still holds the message before it with this checkpoint's publish time, so that it is the
     * ringbuffer the checkpoint was taken on; otherwise the head, the oldest message held, so that nothing held is
     * skipped (what was handled already comes again and is deduplicated, ADR 0004).
     *
     * @param publishTimeAt the publish time of the message at a sequence from {@code head} to {@code tail}, or
     *     {@link #UNKNOWN} if it could not be read
     */
    public long resumeOn(long head, long tail, LongUnaryOperator publishTimeAt) {
        long last = sequence - 1;
        if (sequence > tail + 1 || last < head || lastPublishTime == UNKNOWN) {
            // Past the end: taken on another ringbuffer. Before the head: everything held is newer than what was
            // handled. Unknown: cannot tell.
            return head;
        }
        return publishTimeAt.applyAsLong(last) == lastPublishTime ? sequence : head;
    }
}
