package io.sagaflow.gateway.correlation;

import java.util.HexFormat;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * A W3C trace context ({@code traceparent}, version {@code 00}): the trace id the request belongs to, the id of the
 * span that sent it and the trace flags. The gateway is one hop of the trace: it keeps the caller's trace id and
 * flags and sends the services its own span id as the parent, or starts a new trace when the caller sent none.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param parentId 16 lower-case hex digits, not all zero
 * @param flags 2 hex digits; {@code 01} is "sampled"
 */
public record TraceContext(String traceId, String parentId, String flags) {

    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    // Version 00 exactly; a later version may append fields after the flags, which a 00 parser keeps ignoring.
    private static final Pattern HEADER =
            Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_SPAN = "0".repeat(16);
    private static final HexFormat HEX = HexFormat.of();

    /** The caller's context, if its header is a valid {@code traceparent}. */
    public static Optional<TraceContext> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        var matcher = HEADER.matcher(header.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String version = matcher.group(1);
        boolean knownLayout = version.equals("00") ? matcher.group(5) == null : !version.equals("ff");
        if (!knownLayout
                || matcher.group(2).equals(ZERO_TRACE)
                || matcher.group(3).equals(ZERO_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(matcher.group(2), matcher.group(3), matcher.group(4)));
    }

    /** A new trace, sampled, whose first span is the gateway's. */
    public static TraceContext start(RandomGenerator random) {
        return new TraceContext(nonZeroHex(random, 16), nonZeroHex(random, 8), "01");
    }

    /** The context the gateway sends on: the same trace and flags, with the gateway's span as the parent. */
    public TraceContext nextHop(RandomGenerator random) {
        return new TraceContext(traceId, nonZeroHex(random, 8), flags);
    }

    public String header() {
        return "00-" + traceId + "-" + parentId + "-" + flags;
    }

    private static String nonZeroHex(RandomGenerator random, int bytes) {
        byte[] id = new byte[bytes];
        do {
            random.nextBytes(id);
        } while (isZero(id));
        return HEX.formatHex(id);
    }

    private static boolean isZero(byte[] id) {
        for (byte b : id) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
