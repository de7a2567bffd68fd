package io.sagaflow.gateway.problem;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * An error the gateway answers itself: an RFC 9457 problem with a stable {@code code} (the type is
 * {@code urn:sagaflow:problem:<code>}), optional extension members and, where waiting helps, a {@code Retry-After}.
 *
 * @param status the HTTP status
 * @param code the stable, machine-readable code clients switch on
 * @param detail a human-readable explanation
 * @param properties extension members, e.g. the {@code service} that failed
 * @param retryAfter when the client may try again, or {@code null}
 */
public record Problem(
        HttpStatus status, String code, String detail, Map<String, Object> properties, Duration retryAfter) {

    public Problem {
        properties = Map.copyOf(properties);
    }

    public static Problem of(HttpStatus status, String code, String detail) {
        return new Problem(status, code, detail, Map.of(), null);
    }

    public Problem with(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(properties);
        more.put(name, value);
        return new Problem(status, code, detail, more, retryAfter);
    }

    public Problem retryAfter(Duration wait) {
        return new Problem(status, code, detail, properties, wait);
    }

    /** {@code Retry-After} in whole seconds, rounded up and at least one, or {@code null}. */
    public Long retryAfterSeconds() {
        if (retryAfter == null) {
            return null;
        }
        long millis = Math.max(0, retryAfter.toMillis());
        return Math.max(1, (millis + 999) / 1000);
    }
}
