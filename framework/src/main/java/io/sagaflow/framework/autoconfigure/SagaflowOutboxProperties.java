package io.sagaflow.framework.autoconfigure;

import io.sagaflow.framework.outbox.OutboxSettings;
import java.time.Duration;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code sagaflow.outbox.*}: see {@link OutboxSettings} for what each setting does. */
@ConfigurationProperties("sagaflow.outbox")
public class SagaflowOutboxProperties {

    private boolean relayEnabled = true;
    private int buckets = 64;
    private int batchSize = 256;
    private Duration pollInterval = Duration.ofSeconds(1);
    private Duration leaseTtl = Duration.ofSeconds(10);
    private Duration retention = Duration.ofHours(1);
    private Duration pruneInterval = Duration.ofMinutes(1);
    private int pruneBatchSize = 10_000;

    /**
     * The topic families of the events this service appends (ADR 0019, 0036), whose consumers may ask it to publish
     * again what they missed (ADR 0093). Empty: it answers no such request.
     */
    private Set<String> publishers = Set.of();

    /**
     * How much earlier than the time a consumer asks for events are published again at least: above the outbox's usual
     * lag; a relay that saw longer lags lately reaches back by those (ADR 0093).
     */
    private Duration replayMargin = Duration.ofSeconds(10);

    /** The oldest event published again: below every consumer's processed-event retention. */
    private Duration replayMaxAge = Duration.ofHours(12);

    OutboxSettings toSettings() {
        return new OutboxSettings(buckets, batchSize, pollInterval, leaseTtl, retention, pruneInterval, pruneBatchSize);
    }

    public boolean isRelayEnabled() {
        return relayEnabled;
    }

    public void setRelayEnabled(boolean relayEnabled) {
        this.relayEnabled = relayEnabled;
    }

    public int getBuckets() {
        return buckets;
    }

    public void setBuckets(int buckets) {
        this.buckets = buckets;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public Duration getLeaseTtl() {
        return leaseTtl;
    }

    public void setLeaseTtl(Duration leaseTtl) {
        this.leaseTtl = leaseTtl;
    }

    public Duration getRetention() {
        return retention;
    }

    public void setRetention(Duration retention) {
        this.retention = retention;
    }

    public Duration getPruneInterval() {
        return pruneInterval;
    }

    public void setPruneInterval(Duration pruneInterval) {
        this.pruneInterval = pruneInterval;
    }

    public int getPruneBatchSize() {
        return pruneBatchSize;
    }

    public void setPruneBatchSize(int pruneBatchSize) {
        this.pruneBatchSize = pruneBatchSize;
    }

    public Set<String> getPublishers() {
        return publishers;
    }

    public void setPublishers(Set<String> publishers) {
        this.publishers = publishers;
    }

    public Duration getReplayMargin() {
        return replayMargin;
    }

    public void setReplayMargin(Duration replayMargin) {
        this.replayMargin = replayMargin;
    }

    public Duration getReplayMaxAge() {
        return replayMaxAge;
    }

    public void setReplayMaxAge(Duration replayMaxAge) {
        this.replayMaxAge = replayMaxAge;
    }
}
