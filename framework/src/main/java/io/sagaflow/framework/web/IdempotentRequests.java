package io.sagaflow.framework.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sagaflow.framework.eventstore.IdempotencyKey;
import io.sagaflow.framework.eventstore.IdempotencyKeyUsedException;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code Idempotency-Key} request header (IETF draft "The Idempotency-Key HTTP Header Field"), for the requests
 * that create something (ADR 0070). A client that sends one may send the request again, with the same key, whenever
 * it cannot know whether the first one was carried out (its connection closed before the answer came): the request
 * is carried out once, and made again it is answered with what the first one created, marked {@code
 * Idempotent-Replayed: true}. The same key with a different request is refused (422 {@code IDEMPOTENCY_KEY_REUSED}).
 *
 * <p>The key is a structured-field string ({@code "…"}, as the draft has it) or the same characters unquoted, as
 * most clients send it: 1 to {@value #MAX_LENGTH} visible ASCII characters. A request's fingerprint is the SHA-256 of
 * the request body as the service read it, written as JSON by a mapper of its own: member order and white space do
 * not matter, and a change of the service's JSON settings does not turn a request made again into another one.
 *
 * <p>Keys are unique per scope (the service's kind of resource, {@code orders}), and within it per caller when the
 * request comes through the API gateway with an authenticated caller, named by {@value #CLIENT}: the gateway sets that
 * header and drops any a caller sent. A request to a service directly, or through a gateway without authentication,
 * names no caller, and its keys share the scope.
 *
 * <p>It counts the requests made again, {@code sagaflow.idempotency.repeats} by {@code scope} and {@code outcome}:
 * {@code replayed} (answered with what the first one made) or {@code refused} (the key came with another request).
 * Many replays say clients lose answers (time-outs too short, connections cut); refusals say a client reuses keys.
 */
public final class IdempotentRequests {

    /** The request header. */
    public static final String HEADER = "Idempotency-Key";

    /** The header on the answer to a request made again, {@code true}. */
    public static final String REPLAYED = "Idempotent-Replayed";

    /**
     * The request header the API gateway names the authenticated caller by (ADR 0070): with it, a key is the caller's
     * own, apart from the same key of any other caller. The gateway sets it and drops a caller's.
     */
    public static final String CLIENT = "Sagaflow-Client";

    /** The longest key taken. */
    public static final int MAX_LENGTH = 255;

    private static final JsonMapper FINGERPRINTS = JsonMapper.builder().build();

    private static final Pattern CLIENT_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** Between a scope and the caller's name: no scope holds a space. */
    private static final String CLIENT_SEPARATOR = " ";

    private final MeterRegistry meters;

    public IdempotentRequests(MeterRegistry meters) {
        this.meters = meters;
    }

    /**
     * The current request's key within {@code scope}, fingerprinted by {@code body}; null if it carries none.
     *
     * @throws ApiException 400 {@code INVALID_IDEMPOTENCY_KEY} if the header is malformed or given twice
     */
    public IdempotencyKey key(String scope, Object body) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes servlet)) {
            return null;
        }
        HttpServletRequest request = servlet.getRequest();
        if (request.getHeader(HEADER) == null) {
            return null;
        }
        List<String> headers = Collections.list(request.getHeaders(HEADER));
        if (headers.size() > 1) {
            throw invalid("give one " + HEADER + " header, not " + headers.size());
        }
        return new IdempotencyKey(scoped(scope, request), parse(headers.getFirst()), fingerprint(body));
    }

    /** {@code scope}, or the part of it that is the gateway's caller's when the request names one. */
    private static String scoped(String scope, HttpServletRequest request) {
        String client = request.getHeader(CLIENT);
        if (client == null) {
            return scope;
        }
        if (!CLIENT_NAME.matcher(client).matches()
                || Collections.list(request.getHeaders(CLIENT)).size() > 1) {
            throw ApiException.badRequest(
                    "INVALID_CLIENT", "Invalid " + CLIENT + ": one name of 1 to 64 characters A-Z, a-z, 0-9, _ or -");
        }
        return scope + CLIENT_SEPARATOR + client;
    }

    /** The scope a key was counted under: its service's, without the caller's name. */
    static String unscoped(String scope) {
        int separator = scope.indexOf(CLIENT_SEPARATOR);
        return separator < 0 ? scope : scope.substring(0, separator);
    }

    /**
     * The stream of what the first request with the key made, if this request is that one made again.
     *
     * @throws ApiException 422 {@code IDEMPOTENCY_KEY_REUSED} if the key was used for another request
     */
    public String replayedStream(IdempotencyKeyUsedException used) {
        boolean replayed = used.sameRequest();
        Counter.builder("sagaflow.idempotency.repeats")
                .description("Requests made again with an Idempotency-Key: replayed, or refused as another request")
                .tag("scope", unscoped(used.key().scope()))
                .tag("outcome", replayed ? "replayed" : "refused")
                .register(meters)
                .increment();
        if (!replayed) {
            throw new ApiException(
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    "IDEMPOTENCY_KEY_REUSED",
                    "The " + HEADER + " was used before for a different request; use a new key for a new request");
        }
        return used.streamId();
    }

    /** The key a header value gives: a structured-field string unquoted, or a bare value as it is. */
    static String parse(String header) {
        String value = header.strip();
        String key;
        if (value.startsWith("\"")) {
            key = unquote(value);
        } else {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c <= ' ' || c > '~' || c == '"') {
                    throw invalid("the key may hold visible ASCII characters only, or be a quoted string");
                }
            }
            key = value;
        }
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            throw invalid("the key must be 1 to " + MAX_LENGTH + " characters long");
        }
        return key;
    }

    /** A structured-field string (RFC 9651, section 3.3.3): printable ASCII, with {@code \"} and {@code \\}. */
    private static String unquote(String value) {
        StringBuilder key = new StringBuilder(value.length());
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                char escaped = ++i < value.length() ? value.charAt(i) : 0;
                if (escaped != '"' && escaped != '\\') {
                    throw invalid("a quoted key may escape only '\"' and '\\'");
                }
                key.append(escaped);
            } else if (c == '"') {
                if (i != value.length() - 1) {
                    throw invalid("nothing may follow the quoted key");
                }
                return key.toString();
            } else if (c < ' ' || c > '~') {
                throw invalid("a quoted key may hold printable ASCII characters only");
            } else {
                key.append(c);
            }
        }
        throw invalid("the quoted key has no closing quote");
    }

    private static String fingerprint(Object body) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(FINGERPRINTS.writeValueAsBytes(body)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static ApiException invalid(String detail) {
        return ApiException.badRequest("INVALID_IDEMPOTENCY_KEY", "Invalid " + HEADER + ": " + detail);
    }
}
