package io.sagaflow.gateway.routing;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.common.Shortcut;
import org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions;
import org.springframework.cloud.gateway.server.mvc.filter.SimpleFilterSupplier;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpResponse;
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

    /**
     * The largest body of a keyed write that is held in memory to be sent again; a larger one, or one of unknown
     * length, is streamed through once. A creating request's body is a few hundred bytes, an order of 100 lines
     * about 10 KB.
     */
    static final long MAX_REPLAYABLE_BODY = 64 * 1024;

    private static final Set<HttpMethod> IDEMPOTENT_READS = Set.of(HttpMethod.GET, HttpMethod.HEAD);
    private static final Set<Integer> UNAVAILABLE = Set.of(502, 503, 504);

    /** Not 503: a service that sheds load changed nothing and said when to come back; the client has that answer. */
    private static final Set<Integer> UNANSWERED = Set.of(502, 504);

    private SagaflowFilterFunctions() {}

    /**
     * {@code RetryReads=n}: sends a {@code GET} or {@code HEAD} again, up to {@code retries} more times, when the
     * service could not be reached or answered 502, 503 or 504; with several replicas the load balancer picks the
     * next one. Other methods are not retried here (see {@link #retryKeyedWrites}): a write that reached a service
     * must not be applied twice. Placed inside the route's circuit breaker, all attempts share one time limit and
     * count as one call.
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
     * {@code RetryKeyedWrites=n}, for the routes of requests the service makes idempotent by their {@code
     * Idempotency-Key} (ADR 0070): sends a request that carries one key again, up to {@code retries} more times, when
     * the service could not be reached, closed the connection without an answer (a replica that stopped while it held
     * the request) or answered 502 or 504. The next replica then carries it out, or answers with what the first one
     * did. Its body is held in memory for that, up to {@value #MAX_REPLAYABLE_BODY} bytes of a known length. A request
     * without a key, with two, or with a larger body is sent once.
     *
     * <p>Only for routes whose every write honours the key: sent again, a write that ignores it is applied twice.
     */
    @Shortcut
    public static HandlerFilterFunction<ServerResponse, ServerResponse> retryKeyedWrites(int retries) {
        Function<ServerRequest, ServerRequest> cachedBody = BeforeFilterFunctions.adaptCachedBody();
        return (request, next) -> {
            if (!replayable(request)) {
                return next.handle(request);
            }
            MvcUtils.cacheBody(request);
            // Each attempt reads the held body from its start.
            return retrying(request, retries, UNANSWERED, () -> next.handle(cachedBody.apply(request)));
        };
    }

    private static boolean replayable(ServerRequest request) {
        List<String> keys = request.headers().header(IDEMPOTENCY_KEY);
        long length = request.headers().contentLength().orElse(-1);
        return keys.size() == 1 && !keys.getFirst().isBlank() && length >= 0 && length <= MAX_REPLAYABLE_BODY;
    }

    /** One attempt at the service. */
    @FunctionalInterface
    private interface Attempt {

        ServerResponse send() throws Exception;
    }

    /**
     * Makes {@code attempt} up to {@code retries} more times while it fails in transport or is answered with one of
     * {@code statuses}; an interrupted thread (the time limit passed) makes no more.
     */
    private static ServerResponse retrying(ServerRequest request, int retries, Set<Integer> statuses, Attempt attempt)
            throws Exception {
        for (int n = 0; ; n++) {
            boolean last = n >= retries || Thread.currentThread().isInterrupted();
            ServerResponse response;
            try {
                response = attempt.send();
            } catch (RuntimeException e) {
                if (last || !UpstreamFailures.isTransportFailure(e)) {
                    throw e;
                }
                continue;
            }
            if (last || !statuses.contains(response.statusCode().value())) {
                return response;
            }
            discard(request);
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
