package io.sagaflow.gateway.routing;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.common.Shortcut;
import org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions;
import org.springframework.cloud.gateway.server.mvc.filter.SimpleFilterSupplier;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The gateway's own route filters, usable by name in {@code spring.cloud.gateway.server.webmvc.routes} (a
 * {@link FilterSupplier} bean makes them known).
 */
public final class SagaflowFilterFunctions {

    /** The header of a creating request that the service carries out once however often it is sent (ADR 0070). */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** How the keys the gateway gives creating requests that carry none begin. */
    static final String GATEWAY_KEY_PREFIX = "gateway-";

    /**
     * The largest body of a keyed write that is held in memory to be sent again; a larger one, or one of unknown
     * length, is streamed through once. A creating request's body is a few hundred bytes, an order of 100 lines
     * about 10 KB.
     */
    static final long MAX_REPLAYABLE_BODY = 64 * 1024;

    /**
     * How much of the answer to a keyed write is read before it is passed on, so that a connection that breaks in the
     * middle of it fails the attempt, which is then sent again, rather than the client's answer. A created resource is
     * under a kilobyte.
     */
    static final long MAX_HELD_ANSWER = 64 * 1024;

    private static final Set<HttpMethod> IDEMPOTENT_READS = Set.of(HttpMethod.GET, HttpMethod.HEAD);
    private static final Set<Integer> UNAVAILABLE = Set.of(502, 503, 504);

    /** Not 503: a service that sheds load changed nothing and said when to come back; the client has that answer. */
    private static final Set<Integer> UNANSWERED = Set.of(502, 504);

    private SagaflowFilterFunctions() {}

    /**
     * {@code RetryReads=n}: sends a {@code GET} or {@code HEAD} again, up to {@code retries} more times, when the
     * service could not be reached or answered 502, 503 or 504; with several replicas the load balancer picks the
     * next one. Other methods are not retried here (see {@link #retryUnsentWrites} and {@link #retryKeyedWrites}): a
     * write that reached a service must not be applied twice. Placed inside the route's circuit breaker, all attempts
     * share one time limit and count as one call.
     *
     * <p>Unlike the gateway's own {@code Retry} filter, this one also retries transport failures (which the proxy
     * raises as {@code ResourceAccessException}, not {@code IOException}) and never retries them for writes.
     */
    @Shortcut
    public static HandlerFilterFunction<ServerResponse, ServerResponse> retryReads(int retries) {
        return (request, next) -> {
            if (!IDEMPOTENT_READS.contains(request.method())) {
                return next.handle(request);
            }
            return retrying(request, retries, UNAVAILABLE, () -> next.handle(request));
        };
    }

    /**
     * {@code RetryUnsentWrites=n}: sends a write (any method but {@code GET} and {@code HEAD}) again, up to {@code
     * retries} more times, when it never left the gateway: the call found no replica to connect to (refused, or no
     * connection within the connect time-out) and nothing of the request's body had been read ({@link
     * BodyReadFilter}). The load balancer then picks the next replica, and leaves out the one that refused ({@link
     * UnreachableReplicas}). A write that failed in any other way may have reached a service and is not sent again.
     */
    @Shortcut
    public static HandlerFilterFunction<ServerResponse, ServerResponse> retryUnsentWrites(int retries) {
        return (request, next) -> {
            if (IDEMPOTENT_READS.contains(request.method())) {
                return next.handle(request);
            }
            return retryingUnsent(request, retries, () -> next.handle(request));
        };
    }

    /**
     * {@code RetryKeyedWrites=n}, for the routes of requests the service makes idempotent by their {@code
     * Idempotency-Key} (ADR 0070): sends a request that carries one key again, up to {@code retries} more times, when
     * the service could not be reached, closed the connection without an answer (a replica that stopped while it held
     * the request) or answered 502 or 504. The next replica then carries it out, or answers with what the first one
     * did. Its body is held in memory for that, up to {@value #MAX_REPLAYABLE_BODY} bytes of a known length, and so is
     * the answer, read to its end before it is passed on: a connection that breaks in the middle of the answer fails
     * that attempt too. A request with two keys, or with a larger body, is sent again only when it never left the
     * gateway, as by {@link #retryUnsentWrites}.
     *
     * <p>A request without a key is given one by the gateway ({@value #GATEWAY_KEY_PREFIX} and a random UUID), the same
     * for each of its attempts: the gateway is then a client that sends it again with its key, and a replica that dies
     * holding it costs the client nothing either. The client's own retries are not covered (it does not know the key);
     * the answer to an attempt that the service recognised as made again says {@code Idempotent-Replayed}.
     *
     * <p>Only for routes whose every write honours the key: sent again, a write that ignores it is applied twice.
     */
    @Shortcut
    public static HandlerFilterFunction<ServerResponse, ServerResponse> retryKeyedWrites(int retries) {
        Function<ServerRequest, ServerRequest> cachedBody = BeforeFilterFunctions.adaptCachedBody();
        return (given, next) -> {
            ServerRequest request = keyed(given);
            if (!replayable(request)) {
                return retryingUnsent(request, retries, () -> next.handle(request));
            }
            byte[] body = MvcUtils.cacheBody(request).readAllBytes();
            return retrying(request, retries, UNANSWERED, () -> {
                // Each attempt reads the held body from its start, through a stream of its own: the HTTP client
                // writes a body on a thread of its own, and the writer of a failed attempt may still read after the
                // next attempt began. Sharing one stream, it took the next attempt's body, which went out empty.
                MvcUtils.putAttribute(request, MvcUtils.CACHED_REQUEST_BODY_ATTR, new ByteArrayInputStream(body));
                ServerResponse response = next.handle(cachedBody.apply(request));
                holdAnswer(request);
                return response;
            });
        };
    }

    /**
     * Reads the service's answer to its end, up to {@value #MAX_HELD_ANSWER} bytes, and has the proxy pass on those
     * bytes: a replica that stops in the middle of its answer fails the attempt here, before anything of it reached
     * the client. (The services answer in chunks, of no length known beforehand.) A longer answer is passed on as it
     * comes, the bytes read first and then the rest.
     *
     * @throws ResourceAccessException if the connection broke before the end of the answer
     */
    private static void holdAnswer(ServerRequest request) {
        ClientHttpResponse answer = MvcUtils.getAttribute(request, MvcUtils.CLIENT_RESPONSE_ATTR);
        InputStream body = MvcUtils.getAttribute(request, MvcUtils.CLIENT_RESPONSE_INPUT_STREAM_ATTR);
        if (answer == null || body == null) {
            return;
        }
        try {
            byte[] read = body.readNBytes((int) MAX_HELD_ANSWER + 1);
            long length = answer.getHeaders().getContentLength();
            if (length >= 0 && read.length < Math.min(length, MAX_HELD_ANSWER + 1)) {
                throw new EOFException("the answer ended after " + read.length + " of " + length + " bytes");
            }
            InputStream held = new ByteArrayInputStream(read);
            MvcUtils.putAttribute(
                    request,
                    MvcUtils.CLIENT_RESPONSE_INPUT_STREAM_ATTR,
                    read.length > MAX_HELD_ANSWER ? new SequenceInputStream(held, body) : held);
        } catch (IOException e) {
            throw new ResourceAccessException("The answer broke off: " + e.getMessage(), e);
        }
    }

    /** {@code request}, with a key of the gateway's if it carries none and its body could be held to send again. */
    private static ServerRequest keyed(ServerRequest request) {
        if (!request.headers().header(IDEMPOTENCY_KEY).isEmpty() || !holdable(request)) {
            return request;
        }
        return ServerRequest.from(request)
                .header(IDEMPOTENCY_KEY, GATEWAY_KEY_PREFIX + UUID.randomUUID())
                .build();
    }

    private static boolean holdable(ServerRequest request) {
        long length = request.headers().contentLength().orElse(-1);
        return length >= 0 && length <= MAX_REPLAYABLE_BODY;
    }

    private static boolean replayable(ServerRequest request) {
        List<String> keys = request.headers().header(IDEMPOTENCY_KEY);
        return keys.size() == 1 && !keys.getFirst().isBlank() && holdable(request);
    }

    /** One attempt at the service. */
    @FunctionalInterface
    interface Attempt {

        ServerResponse send() throws Exception;
    }

    /**
     * Makes {@code attempt} up to {@code retries} more times while it fails in transport or is answered with one of
     * {@code statuses}; an interrupted thread (the time limit passed) makes no more. When every attempt failed, the
     * failure passed on is the last one, unless that one found no replica to connect to while an earlier attempt
     * reached one: the request may then have been carried out, which "cannot be reached" (503, nothing done) would
     * deny, so the earlier failure (502, outcome unknown) is passed on.
     */
    static ServerResponse retrying(ServerRequest request, int retries, Set<Integer> statuses, Attempt attempt)
            throws Exception {
        TriedReplicas.track(request.attributes());
        RuntimeException reached = null;
        for (int n = 0; ; n++) {
            boolean last = n >= retries || Thread.currentThread().isInterrupted();
            ServerResponse response;
            try {
                response = attempt.send();
            } catch (RuntimeException e) {
                if (!UpstreamFailures.isTransportFailure(e)) {
                    throw e;
                }
                if (!UpstreamFailures.isUnreachable(e)) {
                    reached = e;
                }
                if (last) {
                    throw reached != null ? reached : e;
                }
                discard(request);
                continue;
            }
            if (last || !statuses.contains(response.statusCode().value())) {
                return response;
            }
            discard(request);
        }
    }

    /**
     * Makes {@code attempt} up to {@code retries} more times while it finds no replica to connect to and has read
     * nothing of the request's body; any other outcome, answers of every status included, is passed on.
     */
    static ServerResponse retryingUnsent(ServerRequest request, int retries, Attempt attempt) throws Exception {
        TriedReplicas.track(request.attributes());
        for (int n = 0; ; n++) {
            try {
                return attempt.send();
            } catch (RuntimeException e) {
                if (n >= retries
                        || Thread.currentThread().isInterrupted()
                        || !UpstreamFailures.isUnreachable(e)
                        || BodyReadFilter.mayHaveBeenSent(request)) {
                    throw e;
                }
                discard(request);
            }
        }
    }

    /** Closes the response of an attempt that is retried, so its connection goes back to the pool. */
    private static void discard(ServerRequest request) throws IOException {
        ClientHttpResponse abandoned = MvcUtils.getAttribute(request, MvcUtils.CLIENT_RESPONSE_ATTR);
        if (abandoned != null) {
            abandoned.close();
            MvcUtils.putAttribute(request, MvcUtils.CLIENT_RESPONSE_ATTR, null);
        }
    }

    /** Makes {@link SagaflowFilterFunctions} available to route configuration. */
    public static final class FilterSupplier extends SimpleFilterSupplier {

        public FilterSupplier() {
            super(SagaflowFilterFunctions.class);
        }
    }
}
