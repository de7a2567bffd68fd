package io.sagaflow.gateway.routing;

import java.io.IOException;
import java.util.Set;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.common.Shortcut;
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

    private static final Set<HttpMethod> IDEMPOTENT_READS = Set.of(HttpMethod.GET, HttpMethod.HEAD);
    private static final Set<Integer> UNAVAILABLE = Set.of(502, 503, 504);

    private SagaflowFilterFunctions() {}

    /**
     * {@code RetryReads=n}: sends a {@code GET} or {@code HEAD} again, up to {@code retries} more times, when the
     * service could not be reached or answered 502, 503 or 504; with several replicas the load balancer picks the
     * next one. Other methods are never retried: a write that reached a service must not be applied twice. Placed
     * inside the route's circuit breaker, all attempts share one time limit and count as one call.
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
            for (int attempt = 0; ; attempt++) {
                boolean last = attempt >= retries || Thread.currentThread().isInterrupted();
                ServerResponse response;
                try {
                    response = next.handle(request);
                } catch (RuntimeException e) {
                    if (last || !UpstreamFailures.isTransportFailure(e)) {
                        throw e;
                    }
                    continue;
                }
                if (last || !UNAVAILABLE.contains(response.statusCode().value())) {
                    return response;
                }
                discard(request);
            }
        };
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
