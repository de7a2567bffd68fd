package io.sagaflow.framework.web;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.ObservationFilter;
import io.sagaflow.framework.projection.ViewCache;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Reads of a cached view that can wait for it to change (ADR 0025), so a client following a saga asks once instead of
 * every few milliseconds:
 *
 * <ul>
 *   <li>every answer carries the view's {@code ETag};
 *   <li>{@code If-None-Match} with the current tag is answered {@code 304 Not Modified}, without a body;
 *   <li>with {@code Prefer: wait=N} (RFC 7240) as well, the answer waits until the view changes ({@code 200}, the new
 *       view) or N seconds have passed ({@code 304}); N is capped by the service, and the answer is immediate when the
 *       service has as many waiting reads as it allows or is shutting down. {@code Preference-Applied} says when it
 *       waited.
 * </ul>
 *
 * A waiting read gives its in-flight permit and its handler slot back ({@link InFlightLimitFilter#releaseEarly},
 * {@link BoundedHandlers#releaseEarly}): it does no work while it waits, and the cache bounds how many wait. A
 * malformed {@code Prefer} or {@code If-None-Match} is ignored, as RFC 7240 and RFC 9110 ask of preferences and
 * conditions a server does not understand.
 */
public final class LongPoll {

    /** Request attribute set on a read that waited; {@link #tagWaitedReads} turns it into a metric tag. */
    static final String WAITED = LongPoll.class.getName() + ".waited";

    private LongPoll() {}

    /**
     * Tags every {@code http.server.requests} timing {@code wait=yes|no}: a read that waited lasts as long as the
     * change it waited for, so latency figures must be able to leave it out.
     */
    public static ObservationFilter tagWaitedReads() {
        return context -> {
            if (context instanceof ServerRequestObservationContext request) {
                boolean waited =
                        request.getCarrier() != null && request.getCarrier().getAttribute(WAITED) != null;
                context.addLowCardinalityKeyValue(KeyValue.of("wait", waited ? "yes" : "no"));
            }
            return context;
        };
    }

    /**
     * The view {@code id} of {@code cache} as {@code request} asks for it.
     *
     * @param etagOf the view's entity tag, quoted ({@code "..."}); it must change whenever the view does
     * @param maxWait the longest a read may wait, whatever it prefers
     * @param notFound what to throw when there is no such view
     */
    public static <V> ResponseEntity<V> read(
            HttpServletRequest request,
            ViewCache<V> cache,
            String id,
            Function<V, String> etagOf,
            Duration maxWait,
            Supplier<? extends RuntimeException> notFound) {
        String ifNoneMatch = request.getHeader(HttpHeaders.IF_NONE_MATCH);
        Duration wait = ifNoneMatch == null
                ? Duration.ZERO
                : min(preferredWait(Collections.list(request.getHeaders("Prefer"))), maxWait);
        AtomicBoolean waited = new AtomicBoolean();
        Optional<V> found = cache.awaitChange(id, view -> matches(ifNoneMatch, etagOf.apply(view)), wait, () -> {
            waited.set(true);
            request.setAttribute(WAITED, Boolean.TRUE);
            InFlightLimitFilter.releaseEarly(request);
            BoundedHandlers.releaseEarly();
        });
        V view = found.orElseThrow(notFound);
        String etag = etagOf.apply(view);
        boolean notModified = matches(ifNoneMatch, etag);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(notModified ? HttpStatus.NOT_MODIFIED : HttpStatus.OK)
                .eTag(etag);
        if (waited.get()) {
            answer.header("Preference-Applied", "wait=" + wait.toSeconds());
        }
        return notModified ? answer.build() : answer.body(view);
    }

    /** The wait {@code Prefer} headers ask for ({@code wait=N}, seconds), zero when they state none. */
    static Duration preferredWait(List<String> preferHeaders) {
        Duration wait = Duration.ZERO;
        for (String header : preferHeaders) {
            for (String preference : header.split(",")) {
                String token = preference.split(";", 2)[0].trim();
                int eq = token.indexOf('=');
                if (eq > 0 && token.substring(0, eq).trim().equalsIgnoreCase("wait")) {
                    String value = token.substring(eq + 1).trim().replace("\"", "");
                    if (!value.isEmpty() && value.length() <= 9 && value.chars().allMatch(Character::isDigit)) {
                        wait = Duration.ofSeconds(Long.parseLong(value));
                    }
                }
            }
        }
        return wait;
    }

    /** Whether {@code ifNoneMatch} (a header value, possibly null) names {@code etag}, by weak comparison. */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        String opaque = opaque(etag);
        for (String tag : ifNoneMatch.split(",")) {
            String candidate = tag.trim();
            if (candidate.equals("*") || opaque(candidate).equals(opaque)) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
