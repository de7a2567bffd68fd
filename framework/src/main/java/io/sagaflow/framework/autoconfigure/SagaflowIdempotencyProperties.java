package io.sagaflow.framework.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code sagaflow.idempotency.*}: how long the {@code Idempotency-Key}s of carried-out requests are kept (ADR 0070).
 *
 * @param retention how long a key is kept; a request made again later than this is carried out anew
 * @param pruneInterval how often expired keys are deleted
 */
@ConfigurationProperties("sagaflow.idempotency")
public record SagaflowIdempotencyProperties(
        @DefaultValue("24h") Duration retention,
        @DefaultValue("10m") Duration pruneInterval) {}
