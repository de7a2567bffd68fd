package io.sagaflow.framework.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code sagaflow.consumer.*}: retries, checkpointing and the retention of processed-event records. */
@ConfigurationProperties("sagaflow.consumer")
public class SagaflowConsumerProperties {

    /**
     * Attempts per message before it is logged and counted as failed; transient failures (the database away, a
     * deadlock) do not count: they are retried until they pass (ADR 0099).
     */
    private int maxAttempts = 10;

    /** The wait after a message's first failure; it doubles with each further one. */
    private Duration initialBackoff = Duration.ofMillis(50);

    /** The longest wait between two attempts after transient failures. */
    private Duration maxBackoff = Duration.ofSeconds(5);

    /**
     * Worker threads per batching consumer; each topic's messages go to one of them, in order (ADR 0021). More than
     * one lets a consumer's topics be handled side by side, at the price of concurrent batches contending for locks.
     */
    private int lanes = 1;

    /** The most messages a lane handles in one transaction; it takes what has queued up, up to this many. */
    private int batchSize = 64;

    /**
     * Whether the replicas of a service share each consumer's topics, each listening to its part (ADR 0080); false:
     * every replica listens to every topic, and all but one find each message handled already.
     */
    private boolean shareTopics = true;

    /** How long a replica's hold on a topic lasts without renewal; it renews every third of it. */
    private Duration topicLeaseTtl = Duration.ofSeconds(10);

    /** How often shard positions are written. */
    private Duration checkpointInterval = Duration.ofSeconds(1);

    /** How long (consumer, event id) records are kept; must exceed the shared topic's TTL. */
    private Duration processedRetention = Duration.ofHours(24);

    private Duration pruneInterval = Duration.ofMinutes(5);

    public boolean isShareTopics() {
        return shareTopics;
    }

    public void setShareTopics(boolean shareTopics) {
        this.shareTopics = shareTopics;
    }

    public Duration getTopicLeaseTtl() {
        return topicLeaseTtl;
    }

    public void setTopicLeaseTtl(Duration topicLeaseTtl) {
        this.topicLeaseTtl = topicLeaseTtl;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getInitialBackoff() {
        return initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
        this.initialBackoff = initialBackoff;
    }

    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public int getLanes() {
        return lanes;
    }

    public void setLanes(int lanes) {
        this.lanes = lanes;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public Duration getCheckpointInterval() {
        return checkpointInterval;
    }

    public void setCheckpointInterval(Duration checkpointInterval) {
        this.checkpointInterval = checkpointInterval;
    }

    public Duration getProcessedRetention() {
        return processedRetention;
    }

    public void setProcessedRetention(Duration processedRetention) {
        this.processedRetention = processedRetention;
    }

    public Duration getPruneInterval() {
        return pruneInterval;
    }

    public void setPruneInterval(Duration pruneInterval) {
        this.pruneInterval = pruneInterval;
    }
}
